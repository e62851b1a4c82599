import { Transform, type TransformCallback } from "node:stream";

/**
 * A request body counted on its way to Remix: past `limit` bytes (declared or chunked alike) it
 * stops, says so once (`over`), and lets nothing more through. The edge then answers 413 and
 * closes the connection, so a 200 MiB chunked post costs the server its limit, not 200 MiB.
 */
export class BodyLimit extends Transform {
  received = 0;
  over = false;

  constructor(
    readonly limit: number,
    private readonly onOver: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.over) return callback();
    this.received += chunk.length;
    if (this.received <= this.limit) return callback(null, chunk);
    this.over = true;
    this.onOver();
    // The reader (the app's body reader) sees the body break off; the edge has the answer.
    callback(new Error("request body over its limit"));
  }
}

/** The most of an unread body thrown away behind an answer to keep the connection, and for how long. */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
export const DISCARD_MAX_MS = 30_000;

/** After a 413, what still comes is thrown away for this long at most, then the connection ends. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
export const LINGER_MAX_MS = 2_000;
