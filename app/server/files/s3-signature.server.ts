import crypto from "node:crypto";
import type { S3Config } from "../core/env.server";
import { bucketEndpoint, bucketOrigin } from "../core/env/storage-settings.server";

/**
 * Signed GET URLs (AWS Signature Version 4, query-string form) made with node:crypto alone, so
 * serving a file from the bucket never loads the AWS SDK (~25 MB): a storefront burst of covers
 * and samples stays within the server's memory budget (npm run bench:server). The same URL the SDK's presigner makes,
 * byte for byte (tests/server/files/storage.test.ts compares them).
 */
export type SignedGet = {
  expiresIn: number;
  signingDate: Date;
  /** response-content-type, response-content-disposition, … : headers S3 answers with. */
  responseHeaders?: Record<string, string | undefined>;
};

/** The bucket's base URL and the path of a key in it (path-style or the bucket's own host name). */
export function objectLocation(config: S3Config, key: string): { origin: string; path: string } {
  const encoded = key.split("/").map(encodeSegment).join("/");
  const origin = bucketOrigin(config);
  if (!config.forcePathStyle) return { origin, path: `/${encoded}` };
  const base = bucketEndpoint(config).pathname.replace(/\/+$/, "");
  return { origin, path: `${base}/${encodeSegment(config.bucket)}/${encoded}` };
}

/** RFC 3986 unreserved characters stay; everything else is %-encoded, as SigV4 requires. */
function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac("sha256", key).update(data).digest();
const sha256Hex = (data: string) => crypto.createHash("sha256").update(data).digest("hex");

export function presignGetUrl(config: S3Config, key: string, request: SignedGet): string {
  const { origin, path } = objectLocation(config, key);
  const host = new URL(origin).host;
  const stamp = request.signingDate
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const day = stamp.slice(0, 8);
  const scope = `${day}/${config.region}/s3/aws4_request`;
  const query: [string, string][] = [
    ["X-Amz-Algorithm", "AWS4-HMAC-SHA256"],
    ["X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD"],
    ["X-Amz-Credential", `${config.accessKeyId}/${scope}`],
    ["X-Amz-Date", stamp],
    ["X-Amz-Expires", String(request.expiresIn)],
    ["X-Amz-SignedHeaders", "host"],
    ...Object.entries(request.responseHeaders ?? {}).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : [[name, value]],
    ),
    ["x-id", "GetObject"],
  ];
  const canonicalQuery = query
    .map(([name, value]) => [encodeSegment(name), encodeSegment(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalRequest = ["GET", path, canonicalQuery, `host:${host}`, "", "host", "UNSIGNED-PAYLOAD"].join(
    "\n",
  );
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = ["s3", "aws4_request"].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${config.secretAccessKey}`, day), config.region),
  );
  const signature = hmac(signingKey, stringToSign).toString("hex");
  return `${origin}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
