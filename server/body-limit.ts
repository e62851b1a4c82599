import type { IncomingMessage, ServerResponse } from "node:http";
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

/**
 * An answer given before its body was all read (an action that had no use for it): the rest is
 * read and thrown away, within the route's limit and DISCARD_MAX_*, so the kept-alive connection
 * stays usable for the caller's next request; a rest larger than that, or one declared so, ends
 * the connection instead. Resolves when the answer may go: at once on a kept-alive connection
 * (the rest is thrown away behind it); on one its caller asked to close (`Connection: close`,
 * HTTP/1.0) only once the rest is read, because Node closes the socket as soon as the answer is
 * out, and closing with the caller's bytes still arriving resets the connection: the caller's
 * write fails (EPIPE) and the answer may be lost with it.
 */
export function keepOrCloseAfter(
  req: IncomingMessage,
  res: ServerResponse,
  counted: BodyLimit,
): Promise<void> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  // A chunked body may be as long as its route allows.
  const rest = (Number.isFinite(declared) ? declared : counted.limit) - counted.received;
  if (rest > DISCARD_MAX_BYTES) {
    res.setHeader("Connection", "close");
    return Promise.resolve();
  }
  // Read from the request itself: the app's body stream stops pulling once its queue is full, so
  // resuming it would stall the connection until the timer cut it.
  req.unpipe(counted);
  return new Promise((resolve) => {
    let thrownAway = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", count);
      resolve();
    };
    const cut = () => {
      req.socket.destroy();
      done();
    };
    const count = (chunk: Buffer) => {
      thrownAway += chunk.length;
      if (thrownAway > rest) cut();
    };
    const timer = setTimeout(cut, DISCARD_MAX_MS).unref();
    req.on("data", count);
    req.once("end", done);
    req.once("close", done);
    req.resume();
    if (res.shouldKeepAlive) resolve();
  });
}
