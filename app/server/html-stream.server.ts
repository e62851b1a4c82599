import { Transform } from "node:stream";

/**
 * React 18's streaming renderer sends each full 2 KiB buffer whole, even when the last
 * multi-byte character did not fit and 1–3 bytes at its end were never written; those
 * bytes stay 0 and reach the browser as U+FFFD inside Japanese text
 * (facebook/react#24985, fixed by #26228 in React 19 only). HTML never holds a NUL, so
 * the trailing zero bytes of a chunk are dropped here.
 */
export function dropReactPaddingBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let end = chunk.length;
      while (end > 0 && end > chunk.length - 3 && chunk[end - 1] === 0) end--;
      callback(null, end === chunk.length ? chunk : chunk.subarray(0, end));
    },
  });
}
