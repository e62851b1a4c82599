import type { S3Config } from "../core/env.server";
import { presignGetUrl } from "./s3-signature.server";
import type { ServeOptions } from "./store.server";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "~/lib/rules/tokyo-date";

/**
 * Signed URLs of public media are signed at the start of a window of this length and live an hour:
 * one URL for everyone during the window (browsers and the redirect can cache it), still valid
 * 50 minutes after it was handed out (a video player seeks with it).
 */
const SIGNING_WINDOW_MS = 10 * MINUTE_MS;
const MEDIA_URL_LIFETIME_S = HOUR_MS / SECOND_MS;

/** The response headers a signed URL asks the bucket to send with the object. */
export type SignedResponseHeaders = {
  ResponseContentType?: string;
  ResponseCacheControl?: string;
  ResponseContentDisposition?: string;
};

/**
 * A GET URL for the object `key` signed for `lifetime` seconds; the response headers it names are
 * S3's to send. Signed without the SDK (s3-signature.server.ts): serving never loads it.
 */
export function signedObjectUrl(
  config: S3Config,
  key: string,
  lifetime: number,
  signingDate: Date,
  headers: SignedResponseHeaders = {},
): string {
  return presignGetUrl(config, key, {
    expiresIn: lifetime,
    signingDate,
    responseHeaders: {
      "response-cache-control": headers.ResponseCacheControl,
      "response-content-disposition": headers.ResponseContentDisposition,
      "response-content-type": headers.ResponseContentType,
    },
  });
}

/**
 * The answer to a request for the object `key`: a redirect to the CDN (public files, when there
 * is one) or to a signed URL, so the bytes never pass through Node.
 */
export function redirectToObject(config: S3Config, key: string, options: ServeOptions): Response {
  if (options.audience === "public" && config.publicBaseUrl)
    return redirectTo(`${config.publicBaseUrl}/${encodeKey(key)}`, options.cacheControl);
  const lifetime = options.urlLifetimeSeconds ?? MEDIA_URL_LIFETIME_S;
  // Media URLs are signed per window, so the browser's cache of the object and of this redirect
  // holds for the window; a download's is signed now and lives only minutes.
  const windowed = options.urlLifetimeSeconds === undefined;
  // The bucket checks a signature against the real time, not the shop's clock (which tests move).
  const signedAt = Date.now();
  const signingDate = new Date(
    windowed ? Math.floor(signedAt / SIGNING_WINDOW_MS) * SIGNING_WINDOW_MS : signedAt,
  );
  const url = signedObjectUrl(config, key, lifetime, signingDate, {
    ResponseContentType: options.contentType,
    ResponseCacheControl: options.cacheControl,
    ResponseContentDisposition: options.disposition,
  });
  const scope = options.audience === "public" ? "public" : "private";
  return redirectTo(url, windowed ? `${scope}, max-age=${SIGNING_WINDOW_MS / 1000}` : "private, no-store");
}

/** A key in a URL path: each segment percent-encoded, the slashes kept. */
function encodeKey(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

function redirectTo(url: string, cacheControl: string): Response {
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": cacheControl } });
}
