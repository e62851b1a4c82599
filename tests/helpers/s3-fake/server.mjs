// The HTTP side: which S3 operation a request is (path-style addressing, as the shop's client
// uses with S3_FORCE_PATH_STYLE=true), refusing what S3 would refuse before looking at it, and
// S3's XML error answers.
import crypto from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import { copyObject, uploadPartCopy } from "./copy.mjs";
import { deleteObjects } from "./delete-objects.mjs";
import { S3Error } from "./errors.mjs";
import { listObjects, listObjectsV2 } from "./listing.mjs";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadPart,
} from "./multipart.mjs";
import { deleteObject, getObject, putObject } from "./objects.mjs";
import { BucketStore } from "./store.mjs";

/** Sub-resources S3 has and the shop never uses: answered NotImplemented, not mistaken for the object. */
const UNSUPPORTED = [
  "accelerate",
  "acl",
  "analytics",
  "attributes",
  "cors",
  "encryption",
  "intelligent-tiering",
  "inventory",
  "legal-hold",
  "lifecycle",
  "location",
  "logging",
  "metrics",
  "notification",
  "object-lock",
  "ownershipControls",
  "policy",
  "publicAccessBlock",
  "replication",
  "requestPayment",
  "restore",
  "retention",
  "select",
  "tagging",
  "torrent",
  "versioning",
  "versions",
  "website",
];

const notImplemented = (what) => new S3Error("NotImplemented", `${what} is not implemented by this fake.`);

/** The handler for a request's method and sub-resources; throws what S3 answers when there is none. */
function operationOf(method, key, query, headers) {
  const unsupported = UNSUPPORTED.find((name) => query.has(name));
  if (unsupported) throw notImplemented(`?${unsupported}`);
  if (key === "") {
    if (method === "HEAD") return ({ res }) => void res.writeHead(200).end();
    if (method === "GET" && query.has("uploads")) return listMultipartUploads;
    if (method === "GET" && query.get("list-type") === "2") return listObjectsV2;
    if (method === "GET") return listObjects;
    if (method === "POST" && query.has("delete")) return deleteObjects;
    throw notImplemented(`${method} on a bucket`);
  }
  const uploadId = query.has("uploadId");
  if (headers["x-amz-copy-source"] !== undefined) {
    if (method !== "PUT") throw notImplemented(`${method} with x-amz-copy-source`);
    return uploadId || query.has("partNumber") ? uploadPartCopy : copyObject;
  }
  switch (method) {
    case "PUT":
      if (uploadId || query.has("partNumber")) return uploadPart;
      return putObject;
    case "GET":
      return uploadId ? listParts : getObject;
    case "HEAD":
      return getObject;
    case "DELETE":
      return uploadId ? abortMultipartUpload : deleteObject;
    case "POST":
      if (query.has("uploads")) return createMultipartUpload;
      if (uploadId) return completeMultipartUpload;
      throw notImplemented("This POST");
    default:
      throw new S3Error("MethodNotAllowed", "The specified method is not allowed against this resource.", {
        Method: method,
        ResourceType: "OBJECT",
      });
  }
}

/**
 * Every request must be signed, in the header or in the query (a presigned URL), as S3 refuses
 * anonymous access to a private bucket. The signature itself is not checked: the credentials
 * are the tests' own, and what is under test is the shop's use of S3, not SigV4 (the presigned
 * URL is compared with the AWS presigner's in tests/server/files/storage.test.ts). A presigned URL past its
 * X-Amz-Expires is refused, as S3 does.
 */
function checkSigned(req, query) {
  if (/^AWS4-HMAC-SHA256 Credential=\S+/.test(req.headers.authorization ?? "")) return;
  if (query.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256" && query.has("X-Amz-Signature")) {
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get("X-Amz-Date") ?? "");
    const expires = Number(query.get("X-Amz-Expires"));
    if (
      !date ||
      !query.has("X-Amz-Credential") ||
      !Number.isInteger(expires) ||
      expires < 1 ||
      expires > 604_800
    )
      throw new S3Error(
        "AuthorizationQueryParametersError",
        "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.",
      );
    const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
    if (Date.now() > signedAt + expires * 1000)
      throw new S3Error("AccessDenied", "Request has expired", {
        Expires: new Date(signedAt + expires * 1000).toISOString(),
        ServerTime: new Date().toISOString(),
      });
    return;
  }
  throw new S3Error("AccessDenied", "Access Denied");
}

/** Bucket and key of a path-style URL: /bucket/key/with/slashes. */
function addressOf(pathname) {
  const [, bucketPart = "", ...keyParts] = pathname.split("/");
  try {
    const bucket = decodeURIComponent(bucketPart);
    const key = decodeURIComponent(keyParts.join("/"));
    if (Buffer.byteLength(key) > 1024) throw new S3Error("KeyTooLongError", "Your key is too long");
    return { bucket, key };
  } catch (error) {
    if (error instanceof S3Error) throw error;
    throw new S3Error("InvalidURI", "Couldn't parse the specified URI.");
  }
}

async function answerError(req, res, error, resource, requestId) {
  // The client went away (a body cut off): there is no one to answer. (Not req.destroyed: a
  // body read to its end with for await is destroyed too.)
  if (res.headersSent || req.socket.destroyed) {
    res.destroy();
    return;
  }
  if (!(error instanceof S3Error)) {
    if (error?.code === "IncompleteBody")
      error = new S3Error(
        "IncompleteBody",
        "You did not provide the number of bytes specified by the Content-Length HTTP header",
      );
    else {
      console.error("[s3-fake]", error);
      error = new S3Error("InternalError", "We encountered an internal error. Please try again.");
    }
  }
  // A body S3 refused before reading it: read to its end so the client hears the answer (past
  // 5 GiB the connection is closed instead, as S3 does).
  const closing = error.code === "EntityTooLarge";
  if (!req.complete && !closing) {
    req.resume();
    await Promise.race([once(req, "end"), once(req, "close")]).catch(() => undefined);
  }
  const body = req.method === "HEAD" ? "" : error.body(resource, requestId);
  res.writeHead(error.status, {
    ...error.headers,
    ...(body && { "Content-Type": "application/xml" }),
    "Content-Length": Buffer.byteLength(body),
    ...(closing && { Connection: "close" }),
  });
  res.end(body);
}

/**
 * Starts the fake S3 on loopback, storing under `directory`, with the given buckets.
 * @param {{ directory: string, buckets: string[], port?: number, host?: string }} options
 */
export async function startFakeS3({ directory, buckets, port = 0, host = "127.0.0.1" }) {
  const store = new BucketStore(directory, buckets);
  await store.prepare();
  const server = http.createServer(async (req, res) => {
    const requestId = crypto.randomBytes(8).toString("hex").toUpperCase();
    res.setHeader("x-amz-request-id", requestId);
    const [pathname = "/", search = ""] = (req.url ?? "/").split("?");
    const query = new URLSearchParams(search);
    try {
      checkSigned(req, query);
      const { bucket, key } = addressOf(pathname);
      if (bucket === "") throw notImplemented("ListBuckets");
      if (!store.hasBucket(bucket))
        throw new S3Error("NoSuchBucket", "The specified bucket does not exist", { BucketName: bucket });
      const operation = operationOf(req.method ?? "GET", key, query, req.headers);
      await operation({ req, res, store, bucket, key, query });
    } catch (error) {
      await answerError(req, res, error, pathname, requestId);
    }
  });
  server.listen(port, host);
  await once(server, "listening");
  const address = server.address();
  return {
    port: address.port,
    endpoint: `http://${host}:${address.port}`,
    directory,
    async close() {
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
