// PutObject, GetObject, HeadObject and DeleteObject: the object's own headers kept from its PUT,
// the response-* overrides a signed URL names, Range (206, or 416 past the end) and the
// conditional headers a browser sends again for a cached object (304, 412).
import { S3Error } from "./errors.mjs";

/** S3 takes at most 5 GiB in one PUT (or one part). */
export const MAX_SINGLE_BODY = 5 * 1024 ** 3;

/** The headers S3 keeps with an object and sends back with it. */
const KEPT_HEADERS = [
  "content-type",
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "expires",
];

/** What a signed URL may ask S3 to answer with instead of the object's own. */
const OVERRIDES = {
  "response-content-type": "content-type",
  "response-cache-control": "cache-control",
  "response-content-disposition": "content-disposition",
  "response-content-encoding": "content-encoding",
  "response-content-language": "content-language",
  "response-expires": "expires",
};

/** The object's headers, as given to PutObject or CreateMultipartUpload (x-amz-meta-* included). */
export function keptHeaders(req) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers))
    if (KEPT_HEADERS.includes(name) || name.startsWith("x-amz-meta-")) headers[name] = String(value);
  // S3's own default when the PUT named none.
  headers["content-type"] ??= "binary/octet-stream";
  return headers;
}

/**
 * The body's declared length. S3 needs one (the shop always gives it); bodies in the SDK's
 * aws-chunked framing (checksum trailers, which the shop's client does not ask for) are refused
 * rather than stored with their framing.
 */
export function declaredLength(req) {
  if (String(req.headers["content-encoding"] ?? "").includes("aws-chunked"))
    throw new S3Error(
      "NotImplemented",
      "aws-chunked bodies (checksum trailers) are not supported by this fake.",
    );
  const length = req.headers["content-length"];
  if (length === undefined || !/^\d+$/.test(length))
    throw new S3Error("MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (Number(length) > MAX_SINGLE_BODY)
    throw new S3Error("EntityTooLarge", "Your proposed upload exceeds the maximum allowed size.", {
      ProposedSize: length,
      MaxSizeAllowed: MAX_SINGLE_BODY,
    });
  return Number(length);
}

/** Content-MD5, when given, must be the body's (S3: BadDigest). */
export function checkDigest(req, md5) {
  const given = req.headers["content-md5"];
  if (given !== undefined && Buffer.from(md5, "hex").toString("base64") !== given)
    throw new S3Error("BadDigest", "The Content-MD5 you specified did not match what we received.");
}

export async function putObject({ req, res, store, bucket, key }) {
  const length = declaredLength(req);
  const received = await store.receive(req, length);
  try {
    checkDigest(req, received.md5);
  } catch (error) {
    await store.discard(received);
    throw error;
  }
  const etag = `"${received.md5}"`;
  await store.putObject(bucket, key, received, etag, keptHeaders(req));
  res.writeHead(200, { ETag: etag, "Content-Length": 0 });
  res.end();
}

export async function deleteObject({ res, store, bucket, key }) {
  // S3 answers 204 whether or not there was such an object.
  await store.deleteObject(bucket, key);
  res.writeHead(204);
  res.end();
}

/**
 * The byte range a Range header asks for, as S3 reads it: one range of `bytes=a-b`, `a-` or
 * `-n`; anything else (several ranges, another unit, nonsense) is ignored and the whole object
 * sent. Throws InvalidRange when the range starts past the end.
 * @returns {{ start: number, end: number } | null}
 */
export function byteRange(header, size) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(String(header ?? "").trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start;
  let end;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
    if (suffix === 0 || size === 0) start = size;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== "" && Number(match[2]) < start) return null;
  }
  if (start >= size)
    throw new S3Error(
      "InvalidRange",
      "The requested range is not satisfiable",
      { RangeRequested: String(header), ActualObjectSize: size },
      { "Content-Range": `bytes */${size}` },
    );
  return { start, end };
}

const etagList = (header) =>
  String(header)
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""));

/**
 * The answer S3 gives instead of the object when a condition says so: 412 for If-Match and
 * If-Unmodified-Since, 304 for If-None-Match and If-Modified-Since (an If-Match that holds
 * outweighs If-Unmodified-Since; an If-None-Match that fails outweighs If-Modified-Since).
 */
function conditionalStatus(req, record) {
  const modified = Math.floor(Date.parse(record.lastModified) / 1000);
  const since = (name) => Math.floor(Date.parse(String(req.headers[name])) / 1000);
  const matches = (name) => etagList(req.headers[name]).some((tag) => tag === "*" || tag === record.etag);
  if (req.headers["if-match"] !== undefined) {
    if (!matches("if-match")) return 412;
  } else if (req.headers["if-unmodified-since"] !== undefined && modified > since("if-unmodified-since"))
    return 412;
  if (req.headers["if-none-match"] !== undefined) {
    if (matches("if-none-match")) return 304;
  } else if (req.headers["if-modified-since"] !== undefined && modified <= since("if-modified-since"))
    return 304;
  return null;
}

/** GetObject, and HeadObject (the same headers, no body). */
export async function getObject({ req, res, store, bucket, key, query }) {
  const opened = await store.open(bucket, key);
  if (!opened) throw new S3Error("NoSuchKey", "The specified key does not exist.", { Key: key });
  const { record, handle } = opened;
  try {
    const headers = {
      ETag: record.etag,
      "Last-Modified": new Date(record.lastModified).toUTCString(),
      "Accept-Ranges": "bytes",
      ...record.headers,
    };
    for (const [parameter, header] of Object.entries(OVERRIDES))
      if (query.has(parameter)) headers[header] = query.get(parameter);
    const condition = conditionalStatus(req, record);
    if (condition === 412)
      throw new S3Error(
        "PreconditionFailed",
        "At least one of the pre-conditions you specified did not hold",
        {
          Condition: req.headers["if-match"] !== undefined ? "If-Match" : "If-Unmodified-Since",
        },
      );
    if (condition === 304) {
      res.writeHead(304, { ETag: record.etag, "Last-Modified": headers["Last-Modified"] });
      res.end();
      return;
    }
    const range = req.headers.range === undefined ? null : byteRange(req.headers.range, record.size);
    const start = range?.start ?? 0;
    const end = range?.end ?? record.size - 1;
    if (range) headers["Content-Range"] = `bytes ${start}-${end}/${record.size}`;
    headers["Content-Length"] = String(Math.max(0, end - start + 1));
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD" || end < start) {
      res.end();
      return;
    }
    await new Promise((resolve) => {
      const stream = handle.createReadStream({ start, end, autoClose: false });
      stream.pipe(res);
      // The client may go away mid-object: the reading stops and the handle is closed either way.
      res.once("close", () => {
        stream.destroy();
        resolve();
      });
      stream.once("error", () => res.destroy());
    });
  } finally {
    await handle.close();
  }
}
