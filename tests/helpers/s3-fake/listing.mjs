// ListObjectsV2 and ListObjects (v1, which Litestream's Go SDK calls): the keys under a prefix in
// S3's order (their UTF-8 bytes), max-keys at a time, each page ending with a continuation token
// (v2) or a marker (v1) for the next; with a delimiter, the keys that have one after the prefix
// are rolled up into CommonPrefixes (each counted once towards max-keys).
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

/** The page after `marker`: keys and rolled-up prefixes in S3's order, at most `maxKeys` of them. */
async function listPage({ store, bucket, prefix, delimiter, marker, maxKeys }) {
  const entries = [];
  for (const record of await store.listObjects(bucket)) {
    if (!record.key.startsWith(prefix)) continue;
    const cut = delimiter ? record.key.indexOf(delimiter, prefix.length) : -1;
    if (cut === -1) {
      if (!marker || after(record.key, marker)) entries.push({ key: record.key, record });
      continue;
    }
    const common = record.key.slice(0, cut + delimiter.length);
    if (entries.at(-1)?.key === common) continue;
    if (!marker || after(common, marker)) entries.push({ key: common, record: null });
  }
  const page = entries.slice(0, maxKeys);
  return { page, truncated: entries.length > page.length && page.length > 0 };
}

function pageElements(page, encode) {
  return [
    ...page
      .filter((entry) => entry.record)
      .map(({ record }) =>
        element("Contents", [
          element("Key", encode(record.key)),
          element("LastModified", record.lastModified),
          element("ETag", record.etag),
          element("Size", record.size),
          element("StorageClass", "STANDARD"),
        ]),
      ),
    ...page
      .filter((entry) => !entry.record)
      .map((entry) => element("CommonPrefixes", [element("Prefix", encode(entry.key))])),
  ];
}

function send(res, body) {
  res.writeHead(200, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export async function listObjectsV2({ res, store, bucket, query }) {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const token = query.get("continuation-token");
  const startAfter = query.get("start-after") ?? "";
  const maxKeys = pageSize(query, "max-keys");
  // With encoding-type=url the keys come percent-encoded (S3 does it for keys XML cannot carry).
  const encode = query.get("encoding-type") === "url" ? encodeURIComponent : (text) => text;
  const marker = token !== null ? keyOfToken(token) : startAfter;
  const { page, truncated } = await listPage({ store, bucket, prefix, delimiter, marker, maxKeys });
  const body = xmlDocument(
    element("ListBucketResult", [
      element("Name", bucket),
      element("Prefix", encode(prefix)),
      delimiter ? element("Delimiter", encode(delimiter)) : null,
      token !== null ? element("ContinuationToken", token) : null,
      truncated ? element("NextContinuationToken", tokenFor(page.at(-1).key)) : null,
      startAfter ? element("StartAfter", encode(startAfter)) : null,
      element("KeyCount", page.length),
      element("MaxKeys", maxKeys),
      query.get("encoding-type") === "url" ? element("EncodingType", "url") : null,
      element("IsTruncated", truncated),
      ...pageElements(page, encode),
    ]),
  );
  send(res, body);
}

export async function listObjects({ res, store, bucket, query }) {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const marker = query.get("marker") ?? "";
  const maxKeys = pageSize(query, "max-keys");
  const encode = query.get("encoding-type") === "url" ? encodeURIComponent : (text) => text;
  const { page, truncated } = await listPage({ store, bucket, prefix, delimiter, marker, maxKeys });
  const body = xmlDocument(
    element("ListBucketResult", [
      element("Name", bucket),
      element("Prefix", encode(prefix)),
      element("Marker", encode(marker)),
      truncated ? element("NextMarker", encode(page.at(-1).key)) : null,
      delimiter ? element("Delimiter", encode(delimiter)) : null,
      element("MaxKeys", maxKeys),
      query.get("encoding-type") === "url" ? element("EncodingType", "url") : null,
      element("IsTruncated", truncated),
      ...pageElements(page, encode),
    ]),
  );
  send(res, body);
}
