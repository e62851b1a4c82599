// Multipart uploads as S3 runs them: begun, parts sent (each stored whole or not at all, a part
// sent again replacing the earlier one only once it is whole), listed, completed with S3's checks,
// aborted, and the uploads under way listed.
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html
import crypto from "node:crypto";
import { S3Error } from "./errors.mjs";
import { checkDigest, declaredLength, keptHeaders } from "./objects.mjs";
import { completedParts, element, readXmlBody, xmlDocument } from "./xml.mjs";

/** Every part but the last must be at least this big (S3: EntityTooSmall). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;

export const noSuchUpload = (uploadId) =>
  new S3Error(
    "NoSuchUpload",
    "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
    { UploadId: uploadId ?? "" },
  );

/** The upload the request names, begun for this key; S3 answers NoSuchUpload otherwise. */
export async function namedUpload({ store, bucket, key, query }) {
  const upload = await store.upload(bucket, query.get("uploadId"));
  if (!upload || upload.key !== key) throw noSuchUpload(query.get("uploadId"));
  return upload;
}

export function sendXml(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** How many of a listing's entries to give: the query's number, at most 1000 (S3's cap). */
export function pageSize(query, name) {
  const given = query.get(name);
  if (given === null) return 1000;
  if (!/^\d+$/.test(given))
    throw new S3Error("InvalidArgument", `Provided ${name} not an integer or within integer range`);
  return Math.min(Number(given), 1000);
}

export async function createMultipartUpload({ req, res, store, bucket, key }) {
  const uploadId = await store.createUpload(bucket, key, keptHeaders(req));
  sendXml(
    res,
    200,
    xmlDocument(
      element("InitiateMultipartUploadResult", [
        element("Bucket", bucket),
        element("Key", key),
        element("UploadId", uploadId),
      ]),
    ),
  );
}

/** The request's part number, 1 to 10,000 (S3: InvalidArgument). */
export function partNumberOf(query) {
  const partNumber = Number(query.get("partNumber"));
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER)
    throw new S3Error("InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive", {
      ArgumentName: "partNumber",
      ArgumentValue: query.get("partNumber") ?? "",
    });
  return partNumber;
}

export async function uploadPart(context) {
  const { req, res, store, bucket, query } = context;
  const partNumber = partNumberOf(query);
  // Checked before a byte is read, as S3 does.
  const upload = await namedUpload(context);
  const received = await store.receive(req, declaredLength(req));
  try {
    checkDigest(req, received.md5);
  } catch (error) {
    await store.discard(received);
    throw error;
  }
  if (!(await store.putPart(bucket, upload.uploadId, partNumber, received)))
    throw noSuchUpload(upload.uploadId);
  res.writeHead(200, { ETag: `"${received.md5}"`, "Content-Length": 0 });
  res.end();
}

export async function listParts(context) {
  const { res, store, bucket, key, query } = context;
  const upload = await namedUpload(context);
  const parts = (await store.parts(bucket, upload.uploadId)) ?? [];
  const marker = Number(query.get("part-number-marker") ?? 0) || 0;
  const maxParts = pageSize(query, "max-parts");
  const after = parts.filter((part) => part.partNumber > marker);
  const page = after.slice(0, maxParts);
  const truncated = after.length > page.length;
  sendXml(
    res,
    200,
    xmlDocument(
      element("ListPartsResult", [
        element("Bucket", bucket),
        element("Key", key),
        element("UploadId", upload.uploadId),
        element("PartNumberMarker", marker),
        truncated ? element("NextPartNumberMarker", page.at(-1).partNumber) : null,
        element("MaxParts", maxParts),
        element("IsTruncated", truncated),
        element("StorageClass", "STANDARD"),
        ...page.map((part) =>
          element("Part", [
            element("PartNumber", part.partNumber),
            element("LastModified", part.lastModified),
            element("ETag", `"${part.etag}"`),
            element("Size", part.size),
          ]),
        ),
      ]),
    ),
  );
}

/**
 * S3's checks: the list itself first (part numbers ascending: InvalidPartOrder), then each part
 * named stored with that ETag (InvalidPart) and, but the last, at least 5 MiB (EntityTooSmall).
 */
export function checkCompletion(named, stored) {
  if (named.some((part, index) => index > 0 && named[index - 1].partNumber >= part.partNumber))
    throw new S3Error(
      "InvalidPartOrder",
      "The list of parts was not in ascending order. Parts must be ordered by part number.",
    );
  const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
  return named.map((part, index) => {
    const match = byNumber.get(part.partNumber);
    if (!match || match.etag !== part.etag.replace(/"/g, ""))
      throw new S3Error(
        "InvalidPart",
        "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        { PartNumber: part.partNumber, ETag: part.etag, UploadId: "" },
      );
    if (index < named.length - 1 && match.size < MIN_PART_BYTES)
      throw new S3Error(
        "EntityTooSmall",
        "Your proposed upload is smaller than the minimum allowed object size.",
        {
          ProposedSize: match.size,
          MinSizeAllowed: MIN_PART_BYTES,
          PartNumber: part.partNumber,
          ETag: part.etag,
        },
      );
    return match;
  });
}

/** S3's ETag of a multipart object: the MD5 of the parts' MD5s (as bytes), then "-" and their count. */
export function multipartEtag(parts) {
  const md5 = crypto.createHash("md5");
  for (const part of parts) md5.update(Buffer.from(part.etag, "hex"));
  return `"${md5.digest("hex")}-${parts.length}"`;
}

export async function completeMultipartUpload(context) {
  const { req, res, store, bucket, key } = context;
  const upload = await namedUpload(context);
  const named = completedParts((await readXmlBody(req)) ?? "");
  if (!named)
    throw new S3Error(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
    );
  const parts = checkCompletion(named, (await store.parts(bucket, upload.uploadId)) ?? []);
  const etag = multipartEtag(parts);
  await store.completeUpload(bucket, upload, parts, etag);
  const { host } = req.headers;
  sendXml(
    res,
    200,
    xmlDocument(
      element("CompleteMultipartUploadResult", [
        element("Location", `http://${host}/${bucket}/${encodeURI(key)}`),
        element("Bucket", bucket),
        element("Key", key),
        element("ETag", etag),
      ]),
    ),
  );
}

export async function abortMultipartUpload(context) {
  const { res, store, bucket } = context;
  const upload = await namedUpload(context);
  if (!(await store.abortUpload(bucket, upload.uploadId))) throw noSuchUpload(upload.uploadId);
  res.writeHead(204);
  res.end();
}

/** ListMultipartUploads: by prefix, from a key (and upload id) marker, max-uploads at a time. */
export async function listMultipartUploads({ res, store, bucket, query }) {
  const prefix = query.get("prefix") ?? "";
  const keyMarker = query.get("key-marker") ?? "";
  const idMarker = query.get("upload-id-marker") ?? "";
  const maxUploads = pageSize(query, "max-uploads");
  const all = (await store.listUploads(bucket)).filter((upload) => upload.key.startsWith(prefix));
  let from = 0;
  if (keyMarker) {
    // After the marker: later keys, and with an upload id marker, that key's later uploads too.
    const markerAt = idMarker
      ? all.findIndex((upload) => upload.key === keyMarker && upload.uploadId === idMarker)
      : -1;
    from =
      markerAt >= 0
        ? markerAt + 1
        : all.findIndex((upload) => Buffer.compare(Buffer.from(upload.key), Buffer.from(keyMarker)) > 0);
    if (from < 0) from = all.length;
  }
  const page = all.slice(from, from + maxUploads);
  const truncated = from + page.length < all.length;
  sendXml(
    res,
    200,
    xmlDocument(
      element("ListMultipartUploadsResult", [
        element("Bucket", bucket),
        element("KeyMarker", keyMarker),
        element("UploadIdMarker", idMarker),
        truncated ? element("NextKeyMarker", page.at(-1).key) : null,
        truncated ? element("NextUploadIdMarker", page.at(-1).uploadId) : null,
        element("Prefix", prefix),
        element("MaxUploads", maxUploads),
        element("IsTruncated", truncated),
        ...page.map((upload) =>
          element("Upload", [
            element("Key", upload.key),
            element("UploadId", upload.uploadId),
            element("Initiated", upload.initiated),
            element("StorageClass", "STANDARD"),
          ]),
        ),
      ]),
    ),
  );
}
