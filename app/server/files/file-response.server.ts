import fs from "node:fs";
import { Readable } from "node:stream";
import { notFoundResponse } from "../http/not-found.server";

export type ByteRange = { start: number; end: number };

/**
 * Parses a single-range `Range: bytes=…` header against a file size.
 * Returns null when there is no usable header (serve the whole file),
 * or "unsatisfiable" for a range that lies outside the file (answer 416).
 */
export function parseRange(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // multi-range or malformed: ignore, as RFC 9110 allows
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return null;
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

/** Streams a file from disk with Range support (206/416), so phones can seek and resume. */
export function fileResponse(
  request: Request,
  file: string,
  options: { contentType: string; cacheControl: string; disposition?: string },
): Response {
  let size: number;
  let modified: Date;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return notFoundResponse();
    size = stat.size;
    modified = stat.mtime;
  } catch {
    return notFoundResponse();
  }
  const etag = `"${size.toString(16)}-${Math.floor(modified.getTime()).toString(16)}"`;
  const headers = new Headers({
    "Content-Type": options.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": options.cacheControl,
    ETag: etag,
    "Last-Modified": modified.toUTCString(),
    "X-Content-Type-Options": "nosniff",
  });
  if (options.disposition) headers.set("Content-Disposition", options.disposition);
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

  const ifRange = request.headers.get("If-Range");
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.get("Range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers.set("Content-Length", String(size === 0 ? 0 : end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  if (request.method === "HEAD" || size === 0)
    return new Response(null, { status: range ? 206 : 200, headers });
  const reading = fs.createReadStream(file, { start, end });
  // A caller gone mid-file (a parent's phone dropped the download): the disk is read no further.
  // Remix's writer would otherwise read the rest of the file for a closed socket, several GB of
  // a video cut after its first megabytes.
  if (request.signal.aborted) reading.destroy();
  else request.signal.addEventListener("abort", () => reading.destroy(), { once: true });
  const stream = Readable.toWeb(reading) as ReadableStream<Uint8Array>;
  return new Response(stream, { status: range ? 206 : 200, headers });
}
