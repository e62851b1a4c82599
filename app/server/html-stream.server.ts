import { Transform } from "node:stream";

/**
 * React 18.3's streaming renderer writes its whole 2 KB buffer, unused tail included,
 * when a multi-byte character does not fit at its end (facebook/react#30453): NUL
 * bytes land in the middle of Japanese text, and a no-JS page shows them as broken
 * characters (in form values too, so a resubmitted form would carry them). HTML never
 * contains NUL, so the pipe drops them.
 */
export function withoutNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk.includes(0) ? Buffer.from(chunk.filter((byte) => byte !== 0)) : chunk);
    },
  });
}
