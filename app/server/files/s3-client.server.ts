import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../core/env.server";
import { loadS3 } from "../core/lazy-modules.server";
import type { Audience } from "./store.server";

/**
 * The Cache-Control an object is stored with, by its audience. Every stored name is immutable (a
 * new file gets a new name), so either may be kept a year. A private object (a delivered video,
 * its poster and phone version) says `private`: no CDN or proxy keeps it, whatever URL it was
 * fetched by, without resting on the signed URL's response-cache-control alone. Not `no-store`:
 * the parent's own browser may keep the bytes it was given (replaying the player, resuming a
 * download) instead of fetching hundreds of megabytes again; a signed URL is per request anyway,
 * so the browser's copy is only ever its own.
 */
export const OBJECT_CACHE_CONTROL = {
  public: "public, max-age=31536000, immutable",
  private: "private, max-age=31536000, immutable",
} as const satisfies Record<Audience, string>;

/** Whether an object's stored Cache-Control already keeps it out of shared caches. */
export function isPrivateCacheControl(cacheControl: string | null | undefined): boolean {
  return (cacheControl ?? "")
    .split(",")
    .map((directive) => directive.trim().toLowerCase())
    .some((directive) => directive === "private" || directive === "no-store");
}

/**
 * The SDK's warnings, except the one it writes whenever a streamed request fails (the shop ends an
 * UploadPart on purpose when a chunk has the wrong size). Failed commands are not logged here: a
 * 404 is often the expected answer, and the callers log the failures that matter.
 */
const SDK_LOGGER = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (typeof message === "string" && message.includes("non-retryable streaming request")) return;
    console.warn("[s3]", message, ...rest);
  },
  error: () => undefined,
};

/**
 * The SDK client for the bucket, loading the SDK (decision 0024). Flexible checksums only where S3
 * requires them: R2, MinIO and the tests' fake S3 do not all take the SDK's default trailers.
 */
export async function makeS3Client(config: S3Config): Promise<S3Client> {
  const { S3Client } = await loadS3();
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: {
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    logger: SDK_LOGGER,
  });
}

/** The HTTP status of a failed command, when the bucket answered one. */
export function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** A missing object or upload, however the bucket words it. */
export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return statusOf(error) === 404 || name === "NotFound" || name === "NoSuchKey" || name === "NoSuchUpload";
}
