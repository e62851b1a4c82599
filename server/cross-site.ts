import type { IncomingMessage } from "node:http";

/**
 * Cross-site request forgery, answered before Remix reads anything. Browsers send `Origin` with
 * every POST (a form, fetch, XHR); a page of another site, a sandboxed frame or a `data:` page
 * sends another origin or `null`. SameSite=Lax keeps the session cookie off most cross-site posts,
 * but not off a sibling subdomain's (same site, other origin), so the origin itself is checked:
 *
 * - a page post from another origin, or `null`, is refused (403 with the shop's own page);
 * - a JSON call authenticated by the session cookie (the back-office's and the account's screens)
 *   must come from our origin and be `application/json`, which no form of another site can send
 *   without a CORS preflight this server never grants (415 otherwise). The uploads post
 *   `multipart/form-data` from our own screens (a foreign origin is refused as above);
 * - a call with an API token (`Authorization: Bearer`) carries no ambient credential: unchanged.
 *   So is a call with no session cookie at all (the Stripe webhook, a script logging in).
 *
 * A post without `Origin` (curl, an old browser) is let through: no browser of today makes a
 * cross-site post without one.
 */
export type CrossSiteRefusal = { status: 403 | 415; message: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The back-office's file uploads, posted as multipart by its own screens (app/lib/browser/chunked-upload.ts). */
const MULTIPART_CALLS = /^\/api\/video\/contests\/[^/]+\/media(\/chunked-upload|\/[^/]+\/thumbnail)?$/;

export const CROSS_SITE_MESSAGE =
  "このページ以外からの送信は受け付けられません。ショップのページから操作してください。";
export const JSON_ONLY_MESSAGE = "Content-Type: application/json で送信してください";

export function crossSiteRefusal(
  request: IncomingMessage,
  pathname: string,
  ownOrigins: readonly string[],
  sessionCookieName: (name: string) => boolean,
): CrossSiteRefusal | null {
  if (SAFE_METHODS.has(request.method ?? "GET")) return null;
  const origin = request.headers.origin;
  const foreign = origin !== undefined && !ownOrigins.includes(origin);
  if (!pathname.startsWith("/api/")) return foreign ? { status: 403, message: CROSS_SITE_MESSAGE } : null;
  const byCookie =
    !request.headers.authorization &&
    (request.headers.cookie ?? "")
      .split(";")
      .some((pair) => sessionCookieName(pair.trim().split("=")[0] ?? ""));
  if (!byCookie) return null;
  if (foreign) return { status: 403, message: CROSS_SITE_MESSAGE };
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return null;
  if (type === "multipart/form-data" && MULTIPART_CALLS.test(pathname)) return null;
  // A body-less call (DELETE, a POST with nothing to say) has no type to check.
  if (!request.headers["content-length"] && !request.headers["transfer-encoding"]) return null;
  if (request.headers["content-length"] === "0") return null;
  return { status: 415, message: JSON_ONLY_MESSAGE };
}

/**
 * The origins a post of ours comes from: the site's own (SITE_URL), and the one the browser was
 * given by the Host header (the same in production; in development and tests the shop may be
 * reached as 127.0.0.1 or localhost). A forged post names the attacker's page as its origin,
 * whatever host it is sent to.
 */
export function ownOrigins(request: IncomingMessage, siteOrigin: string, secure: boolean): string[] {
  const host = request.headers.host;
  return host ? [siteOrigin, `${secure ? "https" : "http"}://${host}`] : [siteOrigin];
}
