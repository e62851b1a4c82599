// CopyObject and UploadPartCopy: an object's bytes copied within the fake (the shop copies an
// object onto itself to change its headers, in parts past 5 GiB), with S3's checks: the source
// must exist and match x-amz-copy-source-if-match, an object copied onto itself must be given
// new headers (MetadataDirective REPLACE), CopyObject takes at most 5 GiB, a part's range must
// lie within the source.
import { S3Error } from "./errors.mjs";
import { keptHeaders, MAX_SINGLE_BODY } from "./objects.mjs";
import { namedUpload, noSuchUpload, partNumberOf, sendXml } from "./multipart.mjs";
import { element, xmlDocument } from "./xml.mjs";

/** The source an x-amz-copy-source header names: `bucket/key` or `/bucket/key`, URL-encoded. */
function copySourceOf(req, store) {
  const [path = ""] = String(req.headers["x-amz-copy-source"]).split("?");
  const [bucket = "", ...keyParts] = path.replace(/^\//, "").split("/");
  let source;
  try {
    source = { bucket: decodeURIComponent(bucket), key: decodeURIComponent(keyParts.join("/")) };
  } catch {
    throw new S3Error("InvalidArgument", "Invalid copy source encoding");
  }
  if (source.key === "")
    throw new S3Error(
      "InvalidArgument",
      "Copy Source must mention the source bucket and key: sourcebucket/sourcekey",
    );
  if (!store.hasBucket(source.bucket))
    throw new S3Error("NoSuchBucket", "The specified bucket does not exist", { BucketName: source.bucket });
  return source;
}

/** The source object, opened; NoSuchKey when it is not there, PreconditionFailed when its ETag is not the one named. */
async function openSource(req, store) {
  const source = copySourceOf(req, store);
  const opened = await store.open(source.bucket, source.key);
  if (!opened) throw new S3Error("NoSuchKey", "The specified key does not exist.", { Key: source.key });
  const ifMatch = req.headers["x-amz-copy-source-if-match"];
  if (
    ifMatch !== undefined &&
    !String(ifMatch)
      .split(",")
      .some((tag) => tag.trim() === opened.record.etag)
  ) {
    await opened.handle.close();
    throw new S3Error("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", {
      Condition: "x-amz-copy-source-If-Match",
    });
  }
  return { ...source, ...opened };
}

export async function copyObject({ req, res, store, bucket, key }) {
  const directive = String(req.headers["x-amz-metadata-directive"] ?? "COPY").toUpperCase();
  if (directive !== "COPY" && directive !== "REPLACE")
    throw new S3Error("InvalidArgument", "Unknown metadata directive.", {
      ArgumentName: "x-amz-metadata-directive",
      ArgumentValue: directive,
    });
  const source = await openSource(req, store);
  let received;
  try {
    if (source.bucket === bucket && source.key === key && directive === "COPY")
      throw new S3Error(
        "InvalidRequest",
        "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
      );
    if (source.record.size > MAX_SINGLE_BODY)
      throw new S3Error(
        "InvalidRequest",
        `The specified copy source is larger than the maximum allowable size for a copy source: ${MAX_SINGLE_BODY}`,
      );
    received = await store.receive(source.handle.createReadStream({ autoClose: false }), source.record.size);
  } finally {
    await source.handle.close();
  }
  const headers = directive === "REPLACE" ? keptHeaders(req) : source.record.headers;
  const record = await store.putObject(bucket, key, received, `"${received.md5}"`, headers);
  sendXml(
    res,
    200,
    xmlDocument(
      element("CopyObjectResult", [
        element("LastModified", record.lastModified),
        element("ETag", record.etag),
      ]),
    ),
  );
}

export async function uploadPartCopy(context) {
  const { req, res, store, bucket } = context;
  const partNumber = partNumberOf(context.query);
  const upload = await namedUpload(context);
  const source = await openSource(req, store);
  let received;
  try {
    const size = source.record.size;
    const header = req.headers["x-amz-copy-source-range"];
    let start = 0;
    let end = size - 1;
    if (header !== undefined) {
      const match = /^bytes=(\d+)-(\d+)$/.exec(String(header));
      if (!match || Number(match[1]) > Number(match[2]) || Number(match[2]) >= size)
        throw new S3Error(
          "InvalidArgument",
          `Range specified is not valid for source object of size: ${size}`,
          { ArgumentName: "x-amz-copy-source-range", ArgumentValue: String(header) },
        );
      [start, end] = [Number(match[1]), Number(match[2])];
    }
    if (end - start + 1 > MAX_SINGLE_BODY)
      throw new S3Error("InvalidRequest", "The specified copy range is larger than 5 GiB.");
    received = await store.receive(
      source.handle.createReadStream({ start, end, autoClose: false }),
      end - start + 1,
    );
  } finally {
    await source.handle.close();
  }
  if (!(await store.putPart(bucket, upload.uploadId, partNumber, received)))
    throw noSuchUpload(upload.uploadId);
  sendXml(
    res,
    200,
    xmlDocument(
      element("CopyPartResult", [
        element("LastModified", new Date().toISOString()),
        element("ETag", `"${received.md5}"`),
      ]),
    ),
  );
}
