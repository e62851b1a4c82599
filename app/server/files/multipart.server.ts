/**
 * A streaming multipart/form-data reader for media uploads. Remix's own parser searches
 * the stream in JavaScript (about 75 MB/s here) and its file handler ignores write
 * back-pressure; this one finds boundaries with Buffer.indexOf and awaits every write,
 * so a 50 MiB chunk flows to disk at disk speed with a few hundred KiB in memory.
 */

export type PartHeaders = { name: string; filename: string | null; contentType: string };

/** Receives one part's bytes in order; `write` is awaited before more is read (back-pressure). */
export type PartSink = { write(bytes: Buffer): Promise<void>; end(): Promise<void> };

export class MultipartError extends Error {
  override name = "MultipartError";
}

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF_CRLF = Buffer.from("\r\n\r\n");

export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function parsePartHeaders(block: string): PartHeaders {
  let name: string | null = null;
  let filename: string | null = null;
  let contentType = "text/plain";
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") {
      const nameMatch = /;\s*name="([^"]*)"/i.exec(value);
      const fileMatch = /;\s*filename="([^"]*)"/i.exec(value);
      name = nameMatch?.[1] ?? null;
      filename = fileMatch ? fileMatch[1]! : null;
    } else if (key === "content-type") {
      contentType = value;
    }
  }
  if (name === null) throw new MultipartError("part without a name");
  return { name, filename, contentType };
}

/**
 * Reads the body part by part. `onPart` returns a sink for the part's bytes (or null to
 * skip the part). Throws MultipartError on a malformed body.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  onPart: (headers: PartHeaders) => PartSink | null | Promise<PartSink | null>,
): Promise<void> {
  if (!body) throw new MultipartError("empty body");
  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pending: Buffer = Buffer.alloc(0);
  type State = "preamble" | "headers" | "body" | "done";
  let state = "preamble" as State;
  let sink: PartSink | null = null;
  const reader = body.getReader();

  const process = async (final: boolean) => {
    for (;;) {
      if (state === "preamble") {
        const at = pending.indexOf(opening);
        if (at < 0) {
          if (final) throw new MultipartError("no boundary");
          pending = pending.subarray(Math.max(0, pending.length - opening.length));
          return;
        }
        const after = at + opening.length;
        if (pending.length < after + 2) {
          if (final) throw new MultipartError("truncated");
          return;
        }
        if (pending[after] === 0x2d && pending[after + 1] === 0x2d) {
          state = "done";
          return;
        }
        pending = pending.subarray(after + 2);
        state = "headers";
      } else if (state === "headers") {
        const end = pending.indexOf(CRLF_CRLF);
        if (end < 0) {
          if (pending.length > MAX_HEADER_BYTES || final) throw new MultipartError("bad part headers");
          return;
        }
        const headers = parsePartHeaders(pending.subarray(0, end).toString("utf8"));
        pending = pending.subarray(end + 4);
        sink = await onPart(headers);
        state = "body";
      } else if (state === "body") {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep a tail that could be the start of a delimiter split across reads.
          const safe = pending.length - (delimiter.length + 1);
          if (safe > 0) {
            if (sink) await sink.write(pending.subarray(0, safe));
            pending = pending.subarray(safe);
          }
          if (final) throw new MultipartError("truncated");
          return;
        }
        const after = at + delimiter.length;
        if (pending.length < after + 2) {
          if (final) throw new MultipartError("truncated");
          return;
        }
        if (sink) {
          if (at > 0) await sink.write(pending.subarray(0, at));
          await sink.end();
        }
        sink = null;
        if (pending[after] === 0x2d && pending[after + 1] === 0x2d) {
          state = "done";
          return;
        }
        pending = pending.subarray(after + 2);
        state = "headers";
      } else {
        return;
      }
    }
  };

  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        // The client went away mid-body (closed tab, lost connection): bad input, not a server fault.
        throw new MultipartError("body interrupted");
      }
      const { done, value } = next;
      if (done) break;
      if (state === "done") continue; // the epilogue is ignored, but read to the end
      pending = pending.length === 0 ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : Buffer.concat([pending, value]);
      await process(false);
    }
    if (state !== "done") await process(true);
    if (state !== "done") throw new MultipartError("truncated");
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

/** A sink that collects a small text field, refusing anything longer than `max` bytes. */
export function textField(max: number, onValue: (value: string) => void): PartSink {
  const parts: Buffer[] = [];
  let size = 0;
  return {
    async write(bytes) {
      size += bytes.length;
      if (size > max) throw new MultipartError("field too long");
      parts.push(Buffer.from(bytes));
    },
    async end() {
      onValue(Buffer.concat(parts).toString("utf8"));
    },
  };
}
