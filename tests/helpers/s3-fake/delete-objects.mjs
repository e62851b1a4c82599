// DeleteObjects: up to 1,000 keys in one request, each deleted whether or not it was there (as
// DeleteObject does), answered with the keys deleted unless the request asked for quiet.
import crypto from "node:crypto";
import { S3Error } from "./errors.mjs";
import { element, keysToDelete, readXmlBody, xmlDocument } from "./xml.mjs";

const MAX_KEYS = 1000;

/** S3 takes a DeleteObjects only with a digest of its body: Content-MD5 or an x-amz-checksum-*. */
function checkBodyDigest(req, body) {
  const checksum = Object.keys(req.headers).some((name) => name.startsWith("x-amz-checksum-"));
  const md5 = req.headers["content-md5"];
  if (md5 === undefined && !checksum)
    throw new S3Error("InvalidRequest", "Missing required header for this request: Content-MD5");
  if (md5 !== undefined && crypto.createHash("md5").update(body).digest("base64") !== md5)
    throw new S3Error("BadDigest", "The Content-MD5 you specified did not match what we received.");
}

export async function deleteObjects({ req, res, store, bucket }) {
  const body = (await readXmlBody(req)) ?? "";
  checkBodyDigest(req, body);
  const request = keysToDelete(body);
  if (!request || request.keys.length > MAX_KEYS)
    throw new S3Error(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
    );
  for (const key of request.keys) await store.deleteObject(bucket, key);
  const answer = xmlDocument(
    element(
      "DeleteResult",
      request.quiet ? [] : request.keys.map((key) => element("Deleted", [element("Key", key)])),
    ),
  );
  res.writeHead(200, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(answer) });
  res.end(answer);
}
