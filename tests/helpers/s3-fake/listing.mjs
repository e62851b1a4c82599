// ListObjectsV2: the keys under a prefix in S3's order (their UTF-8 bytes), max-keys at a time,
// each page ending with a continuation token for the next.
import { S3Error } from "./errors.mjs";
import { pageSize } from "./multipart.mjs";
import { element, xmlDocument } from "./xml.mjs";

// The token is opaque to the client (S3's are too): here, the last key given, encoded.
const tokenFor = (key) => Buffer.from(key, "utf8").toString("base64url");
function keyOfToken(token) {
  const key = Buffer.from(token, "base64url").toString("utf8");
  if (tokenFor(key) !== token)
    throw new S3Error("InvalidArgument", "The continuation token provided is incorrect", {
      ArgumentName: "continuation-token",
    });
  return key;
}

const after = (key, marker) => Buffer.compare(Buffer.from(key), Buffer.from(marker)) > 0;

export async function listObjectsV2({ res, store, bucket, query }) {
  if (query.get("delimiter"))
    throw new S3Error(
      "NotImplemented",
      "Listing with a delimiter is not supported by this fake (the shop never asks for one).",
    );
  const prefix = query.get("prefix") ?? "";
  const token = query.get("continuation-token");
  const startAfter = query.get("start-after") ?? "";
  const maxKeys = pageSize(query, "max-keys");
  // With encoding-type=url the keys come percent-encoded (S3 does it for keys XML cannot carry).
  const encode = query.get("encoding-type") === "url" ? encodeURIComponent : (text) => text;
  const marker = token !== null ? keyOfToken(token) : startAfter;
  const matching = (await store.listObjects(bucket)).filter(
    (record) => record.key.startsWith(prefix) && (!marker || after(record.key, marker)),
  );
  const page = matching.slice(0, maxKeys);
  const truncated = matching.length > page.length;
  const body = xmlDocument(
    element("ListBucketResult", [
      element("Name", bucket),
      element("Prefix", encode(prefix)),
      token !== null ? element("ContinuationToken", token) : null,
      truncated && page.length > 0 ? element("NextContinuationToken", tokenFor(page.at(-1).key)) : null,
      startAfter ? element("StartAfter", encode(startAfter)) : null,
      element("KeyCount", page.length),
      element("MaxKeys", maxKeys),
      query.get("encoding-type") === "url" ? element("EncodingType", "url") : null,
      element("IsTruncated", truncated && page.length > 0),
      ...page.map((record) =>
        element("Contents", [
          element("Key", encode(record.key)),
          element("LastModified", record.lastModified),
          element("ETag", record.etag),
          element("Size", record.size),
          element("StorageClass", "STANDARD"),
        ]),
      ),
    ]),
  );
  res.writeHead(200, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
