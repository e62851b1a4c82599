import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { NoRoomForUpload } from "../core/out-of-space.server";
import { declaredOver } from "../http/form.server";
import { refusalForBody, writeWithinReserve } from "./upload-room.server";

/**
 * A streaming multipart/form-data reader for every upload (media, covers, delivery videos).
 * Remix's own parser searches
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

/** A part longer than its limit allows: the caller answers 413, not 400. */
export class PartTooLargeError extends MultipartError {
  override name = "PartTooLargeError";
}

const MAX_HEADER_BYTES = 16 * 1024;
/** Writes are gathered into pieces this big: fewer system calls, still little memory. */
export const WRITE_BUFFER_BYTES = 1024 * 1024;
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
      pending =
        pending.length === 0
          ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
          : Buffer.concat([pending, value]);
      await process(false);
    }
    if (state !== "done") await process(true);
    if (state !== "done") throw new MultipartError("truncated");
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

/**
 * A sink that collects a small text field, refusing anything longer than `max` bytes: at once
 * (PartTooLargeError ends the read), or, with `onTooLong`, after the part has been read to its
 * end, keeping nothing past `max`, so the caller can answer 413 once the body is in.
 */
export function textField(
  max: number,
  onValue: (value: string) => void,
  options: { onTooLong?: () => void } = {},
): PartSink {
  const parts: Buffer[] = [];
  let size = 0;
  return {
    async write(bytes) {
      size += bytes.length;
      if (size <= max) parts.push(Buffer.from(bytes));
      else if (!options.onTooLong) throw new PartTooLargeError("field too long");
    },
    async end() {
      if (size > max) options.onTooLong?.();
      else onValue(Buffer.concat(parts).toString("utf8"));
    },
  };
}

/**
 * A sink that writes a part's bytes into a file of `folder` from `position` on, awaiting each
 * write. Past `limit` bytes it stops writing and only counts (the rest of the body is still read,
 * so the client gets the 413 instead of a reset connection). A write that would take the disk
 * below its reserve throws NoRoomForUpload instead (upload-room.server.ts); the caller removes
 * the file.
 */
export function fileSink(handle: fsp.FileHandle, position: number, limit: number, folder: string) {
  let buffer = Buffer.allocUnsafe(Math.min(WRITE_BUFFER_BYTES, Math.max(limit, 1)));
  let filled = 0;
  let written = 0;
  let received = 0;
  const flush = async () => {
    if (filled === 0) return;
    await writeWithinReserve(folder, filled, async () => {
      let offset = 0;
      while (offset < filled) {
        const { bytesWritten } = await handle.write(buffer, offset, filled - offset, position + written);
        written += bytesWritten;
        offset += bytesWritten;
      }
    });
    filled = 0;
  };
  const sink: PartSink & { received(): number; tooBig(): boolean } = {
    async write(bytes) {
      const keep = Math.max(0, Math.min(bytes.length, limit - received));
      received += bytes.length;
      let from = 0;
      while (from < keep) {
        const take = Math.min(keep - from, buffer.length - filled);
        bytes.copy(buffer, filled, from, from + take);
        filled += take;
        from += take;
        if (filled === buffer.length) await flush();
      }
    },
    async end() {
      await flush();
      buffer = Buffer.alloc(0);
    },
    received: () => received,
    tooBig: () => received > limit,
  };
  return sink;
}

/** A file part of a spooled form, already on disk under the name the shop chose. */
export type SpooledFile = { field: string; fileName: string; storedName: string; path: string; size: number };

export type SpooledForm =
  | { ok: true; fields: FormData; files: SpooledFile[] }
  | { ok: false; reason: "too-large" | "unreadable" }
  | { ok: false; reason: "no-room"; refusal: NoRoomForUpload };

/**
 * A whole multipart form, files streamed to disk: each part `isFile` picks (and that has a
 * file name) goes into `directory` under the name `storedName` gives, at most
 * `maxFileBytes`; every other part is a text field of at most `maxFieldBytes`. Anything
 * longer is "too-large" (answered with 413): at once when the declared Content-Length is over
 * `maxBodyBytes`; otherwise the body of a refused file is still read, up to four times its
 * limit, and an over-long field to the end (keeping nothing past its limit), so the browser
 * gets the answer instead of a reset connection. A body that would take the disk of
 * `directory` below its reserve is "no-room": at once by its declared size, or when a write
 * would cross it.
 * When the form is refused, no file it wrote is left behind.
 */
export async function spoolMultipartForm(
  request: Request,
  options: {
    directory: string;
    isFile: (part: PartHeaders) => boolean;
    storedName: (part: PartHeaders) => string;
    maxFileBytes: number;
    maxFieldBytes: number;
    /** A body declaring a larger Content-Length is "too-large" before any of it is read. */
    maxBodyBytes?: number;
  },
): Promise<SpooledForm> {
  if (options.maxBodyBytes !== undefined && declaredOver(request, options.maxBodyBytes))
    return { ok: false, reason: "too-large" };
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return { ok: false, reason: "unreadable" };
  const noRoom = await refusalForBody(options.directory, request);
  if (noRoom) return { ok: false, reason: "no-room", refusal: noRoom };
  const fields = new FormData();
  const open: { file: SpooledFile; handle: fsp.FileHandle; sink: ReturnType<typeof fileSink> }[] = [];
  const discard = async () => {
    for (const { handle, file } of open) {
      await handle.close().catch(() => undefined);
      fs.rmSync(file.path, { force: true });
    }
  };
  let fieldTooLong = false;
  try {
    fs.mkdirSync(options.directory, { recursive: true });
    await readMultipart(request.body, boundary, async (part) => {
      if (!part.filename || !options.isFile(part))
        return textField(options.maxFieldBytes, (value) => fields.append(part.name, value), {
          onTooLong: () => (fieldTooLong = true),
        });
      const storedName = options.storedName(part);
      const file: SpooledFile = {
        field: part.name,
        fileName: part.filename,
        storedName,
        path: path.join(options.directory, storedName),
        size: 0,
      };
      const handle = await fsp.open(file.path, "w");
      const sink = fileSink(handle, 0, options.maxFileBytes, options.directory);
      open.push({ file, handle, sink });
      return {
        async write(bytes) {
          await sink.write(bytes);
          if (sink.received() > 4 * options.maxFileBytes) throw new PartTooLargeError("file too large");
        },
        async end() {
          await sink.end();
          file.size = sink.received();
        },
      };
    });
  } catch (error) {
    await discard();
    if (error instanceof NoRoomForUpload) return { ok: false, reason: "no-room", refusal: error };
    if (error instanceof PartTooLargeError) return { ok: false, reason: "too-large" };
    if (error instanceof MultipartError) return { ok: false, reason: "unreadable" };
    throw error;
  }
  if (fieldTooLong || open.some(({ sink }) => sink.tooBig())) {
    await discard();
    return { ok: false, reason: "too-large" };
  }
  for (const { handle } of open) await handle.close();
  return { ok: true, fields, files: open.map(({ file }) => file) };
}
