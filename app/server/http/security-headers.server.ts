import { redirect, redirectDocument } from "@remix-run/node";
import crypto from "node:crypto";
import { env } from "../core/env.server";
import { storageOrigins } from "../core/env/storage-settings.server";

/**
 * Security headers for every answer: documents get theirs with the page's nonce in entry.server;
 * everything else Remix answers (resource routes, redirects, single-fetch data) gets them from the
 * server entry (`secureAnswer` in edge.server.ts), and static files from `staticFileHeaders`.
 */

/** Pages that load the card provider's script and frames; only they name its hosts. */
const PAYMENT_PATHS = new Set(["/payment"]);

/** The hosts Stripe's Payment Element (and its 3-D Secure frames) needs, per Stripe's CSP guide. */
const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
};

export function isPaymentPage(pathname: string): boolean {
  return PAYMENT_PATHS.has(stripTrailingSlash(pathname));
}

function stripTrailingSlash(pathname: string) {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

// Nonces are cut from a pool of random bytes filled 256 nonces at a time: asking the system for
// 16 bytes per page was ~1 % of a static page's CPU (`npm run bench:profile`). Each nonce is
// still 128 bits from the CSPRNG, and no byte is used twice.
const NONCE_BYTES = 16;
let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;

export function createNonce(): string {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = crypto.randomBytes(NONCE_BYTES * 256);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

type PolicyOptions = {
  pathname: string;
  nonce?: string;
  development?: boolean;
  /** Where stored media are served from besides the shop (object storage, its CDN). */
  mediaOrigins?: string[];
};

/** The Content-Security-Policy of an HTML page. */
export function documentPolicy({
  pathname,
  nonce,
  development = false,
  mediaOrigins = [],
}: PolicyOptions): string {
  const payment = isPaymentPage(pathname);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...(payment ? STRIPE.script : [])],
    // The built app has only its stylesheet. Vite's dev server injects <style> tags for hot reload,
    // and Stripe.js puts inline styles on the elements it mounts in our page (not testable offline,
    // so allowed rather than risk a blank card form); both only where they run.
    "style-src": development || payment ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    // Data-driven values (a category's colour, a progress bar's width) are style attributes that
    // React renders on the server; attributes cannot hold selectors, so they cannot read the page.
    // <style> elements stay limited by style-src. Browsers without style-src-attr fall back to style-src.
    "style-src-attr": ["'unsafe-inline'"],
    // The authenticator QR code is a data: URL; a chosen file is previewed from a blob: URL before upload.
    // Covers, thumbnails and videos in object storage arrive by a redirect to the bucket or the CDN.
    "img-src": ["'self'", "data:", "blob:", ...mediaOrigins, ...(payment ? STRIPE.img : [])],
    "media-src": ["'self'", "blob:", ...mediaOrigins],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(payment ? STRIPE.connect : []), ...(development ? ["ws:", "wss:"] : [])],
    "frame-src": payment ? STRIPE.frame : ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // Stripe's 3-D Secure runs in its frames and returns by navigation, not by a form post.
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * Files, JSON and text: nothing in them may run or load anything. Images and videos
 * opened on their own still show (the browser's viewer loads the response itself).
 */
export const RESOURCE_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function isSecureSite() {
  return env().SITE_URL.startsWith("https://");
}

/**
 * Download pages' and family links' ids are secrets: no Referer leaves a family link's page or a
 * download page's files, not even to this site's other pages. Mailed links (password reset, earlier orders, the order status page's token) are secrets too,
 * but their pages post forms (the status page: the konbini test actions, the receipt; the download
 * page: its family link's buttons), and a
 * no-referrer page's posts carry `Origin: null`, which Remix refuses as cross-site: they send a
 * Referer to this site only, never to another.
 */
function referrerPolicy(pathname: string) {
  if (/^\/(download\/[^/]+\/|family\/)/.test(pathname)) return "no-referrer";
  if (/^\/(reset-password|account\/earlier-orders)$|^\/(orders|download)\//.test(pathname))
    return "same-origin";
  return "strict-origin-when-cross-origin";
}

/**
 * Pages and APIs that show one person's data (the account, orders, checkout steps with the
 * customer's e-mail, download pages) or the back-office: never stored by the browser's or a
 * proxy's cache, so the back button after logout or the next user of a shared computer
 * finds nothing. Data requests are matched by their page's path (".data" stripped).
 */
const PRIVATE_PATHS = [
  /^\/(admin|admin-login|admin-2fa-verify|dashboard|admin-dashboard|video\/dashboard)(\/|$)/,
  /^\/(account|purchase-history|login|logout|register|verify-email|registration-success|registration-complete|forgot-password|reset-password)(\/|$)/,
  /^\/(order-confirmation|order-confirmation-old|email-verification|payment|payment-complete|download|family|orders|order-lookup)(\/|$)/,
  /^\/api\/(admin|download|create-payment-intent)(\/|$)/,
  // Who is logged in, logging in and out, the authenticator, orders and users.
  /^\/api\/(auth|logout|setup-2fa|verify-2fa|orders)(\/|$)|^\/api\/video\/(orders|users)(\/|$)/,
  // The media API under a contest's public media list is the back-office's.
  /^\/api\/video\/contests\/[^/]+\/media\/./,
];

export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PATHS.some((pattern) => pattern.test(pathname));
}

export type HeaderTarget = { pathname: string; nonce?: string };

/** What the headers of the answer to `request` depend on; a data request counts as its page. */
export function headerTarget(request: Request, nonce?: string): HeaderTarget {
  return { pathname: new URL(request.url).pathname.replace(/\.data$/, ""), nonce };
}

/** Sets every security header on `headers` (overwriting what a route may have set for CSP). */
export function applySecurityHeaders(headers: Headers, target: HeaderTarget): void {
  const html = (headers.get("Content-Type") ?? "").startsWith("text/html");
  const development = env().NODE_ENV === "development";
  headers.set(
    "Content-Security-Policy",
    target.nonce !== undefined || html
      ? documentPolicy({ ...target, development, mediaOrigins: storageOrigins(env().S3) })
      : RESOURCE_POLICY,
  );
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", referrerPolicy(target.pathname));
  // `payment` stays at its default: Stripe's frames may use the Payment Request API (wallets).
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (isSecureSite()) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  if (isPrivatePath(target.pathname)) headers.set("Cache-Control", "private, no-store");
}

/**
 * The headers of a static file (the build's assets, `public/`): the same as any resource's, so a
 * stylesheet or an image opened on its own can run nothing and be framed by nobody.
 */
export function staticFileHeaders(pathname: string): Headers {
  const headers = new Headers({ "Content-Type": "application/octet-stream" });
  applySecurityHeaders(headers, { pathname });
  headers.delete("Content-Type");
  return headers;
}

/** The same Response with its headers edited; copied when its headers are immutable (a fetch's, a Response.redirect's). */
export function withEditedHeaders(response: Response, edit: (headers: Headers) => void): Response {
  try {
    edit(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    });
    edit(copy.headers);
    return copy;
  }
}

/** The same Response with the headers applied. */
export function withSecurityHeaders(response: Response, target: HeaderTarget): Response {
  return withEditedHeaders(response, (headers) => applySecurityHeaders(headers, target));
}

/**
 * A redirect to a page of this site. A page with its own policy (the payment page) is sent as a
 * document load at once: a data request for it would run its loaders (taking a toast from the
 * session, preparing the payment) only to be answered "load the document" (needsDocumentLoad).
 */
export function redirectToPage(to: string, init?: ResponseInit): Response {
  const send = isPaymentPage(new URL(to, "http://shop.invalid").pathname) ? redirectDocument : redirect;
  return send(to, init);
}

/**
 * A client-side navigation keeps the CSP of the document it started in, so a page
 * with a different policy (the payment page's card form) must be loaded as a document.
 * True for a data request of such a page made from another page.
 */
export function needsDocumentLoad(request: Request): boolean {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (!url.pathname.endsWith(".data")) return false;
  const pagePath = url.pathname.replace(/\.data$/, "");
  if (!isPaymentPage(pagePath)) return false;
  const referer = request.headers.get("Referer");
  try {
    return !referer || !isPaymentPage(new URL(referer).pathname);
  } catch {
    return true;
  }
}
