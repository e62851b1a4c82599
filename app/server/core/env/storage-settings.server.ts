import { z } from "zod";
import { flag, optionalText, url } from "./values.server";

/** S3 refuses a multipart upload whose parts (all but the last) are smaller than this. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

/** `s3://bucket/prefix`: a bucket name as S3 allows it, then an optional key prefix. */
const STORAGE_URL_PATTERN = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** The S3_* variables, which only mean something beside STORAGE_URL. */
export const S3_VARIABLES = [
  "S3_ENDPOINT",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_PUBLIC_BASE_URL",
] as const;

export const storageSettings = z.object({
  /**
   * Where stored files live: unset, the MEDIA_DIR folder; `s3://bucket/prefix`, S3-compatible
   * object storage (R2, S3, Tigris, MinIO) reached with the S3_* variables below.
   */
  STORAGE_URL: optionalText.pipe(
    z
      .string()
      .regex(
        STORAGE_URL_PATTERN,
        "s3://バケット名/プレフィックス の形式で指定してください（例: s3://shop-media/videos）",
      )
      .optional(),
  ),
  S3_ENDPOINT: optionalText.pipe(
    url("URL の形式が正しくありません（例: https://…r2.cloudflarestorage.com）").optional(),
  ),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag(),
  S3_PUBLIC_BASE_URL: optionalText.pipe(
    z
      .string()
      .url("URL の形式が正しくありません（例: https://media.example.jp）")
      .regex(/^https?:\/\/[^?#]+$/, "クエリや # のない URL を指定してください")
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
  ),
});

/**
 * The object storage STORAGE_URL names (see app/server/files/s3-store.server.ts), or null:
 * stored files live in MEDIA_DIR.
 */
export function objectStorage(settings: z.infer<typeof storageSettings>) {
  const storage = settings.STORAGE_URL ? STORAGE_URL_PATTERN.exec(settings.STORAGE_URL) : null;
  if (!storage) return null;
  return {
    bucket: storage[1]!,
    /** Every key starts with it: empty, or ending in "/". */
    prefix: (storage[2] ?? "").replace(/^\/+|\/+$/g, "").replace(/(.)$/, "$1/"),
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION ?? "",
    accessKeyId: settings.S3_ACCESS_KEY_ID ?? "",
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY ?? "",
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    /** A CDN (or the bucket's public address) that serves public media; without a trailing "/". */
    publicBaseUrl: settings.S3_PUBLIC_BASE_URL,
  };
}

type ObjectStorage = NonNullable<ReturnType<typeof objectStorage>>;

/** The bucket's endpoint: the configured one, or AWS's for the region. */
export function bucketEndpoint(config: ObjectStorage): URL {
  return new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
}

/** The origin signed URLs point at: the endpoint's (path-style), or the bucket's own host name. */
export function bucketOrigin(config: ObjectStorage): string {
  const endpoint = bucketEndpoint(config);
  if (!config.forcePathStyle) endpoint.hostname = `${config.bucket}.${endpoint.hostname}`;
  return endpoint.origin;
}

/**
 * The origins a page's media come from besides the shop itself: the bucket's (where signed URLs
 * point) and the CDN's. A redirect's target must be allowed by the page's CSP too. Here, with the
 * settings, because the security headers (http/) read it and files/ builds on http/.
 */
export function storageOrigins(config: ObjectStorage | null): string[] {
  if (!config) return [];
  const origins = new Set([bucketOrigin(config)]);
  if (config.publicBaseUrl) origins.add(new URL(config.publicBaseUrl).origin);
  return [...origins];
}
