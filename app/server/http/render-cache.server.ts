import type { EntryContext } from "@remix-run/node";
import crypto from "node:crypto";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Pages a visitor without an account gets exactly as the next one does (the home page, an
 * order form before anything is chosen, the static pages, /login, the 404 page), rendered once
 * and served again while everything they are rendered from is the same. In the hour after a
 * recital hundreds of parents open the same order form; React's rendering was over half of
 * each answer's CPU (`npm run bench:profile`), and its output is a function of the address, the
 * status and the loaders' data: the key holds all three, so a page whose data changed (a
 * contest edited, a draft saved, a toast) is rendered afresh, never served stale. The loaders
 * still run for every request: they decide what the page shows, and the cache only skips
 * drawing it again.
 *
 * The CSP nonce differs per answer: a page is rendered with a placeholder that each answer
 * replaces with its own nonce. Pages of a logged-in user, posts, and routes not named below
 * are rendered as before.
 */
const CACHEABLE_ROUTES = new Set([
  "root",
  "routes/storefront/home",
  "aliases/video",
  "routes/storefront/order-form",
  "routes/storefront/about",
  "routes/storefront/terms",
  "routes/storefront/privacy",
  "aliases/privacy-policy",
  "routes/storefront/legal-notice",
  "routes/storefront/not-found",
  "routes/account/login",
]);

/** What is kept at most, and how long a page is served (a safety net: the key holds its inputs). */
const MAX_ENTRIES = 200;
const MAX_CHARS = 4_000_000;
const MAX_AGE_MS = MINUTE_MS;

/** Random per process: no page's text can contain it by chance, and nobody outside knows it. */
export const NONCE_PLACEHOLDER = crypto.randomBytes(18).toString("base64url");

type Entry = { html: string; at: number };
const entries = new Map<string, Entry>();
let keptChars = 0;

/**
 * The key a GET document answer is kept under, or null when it may not be kept: a route not
 * named above, a logged-in user, a toast, data still on its way, or data of a kind the key
 * cannot tell apart.
 */
export function renderCacheKey(request: Request, context: EntryContext): string | null {
  if (request.method !== "GET") return null;
  const state = context.staticHandlerContext;
  if (state.actionData || state.activeDeferreds) return null;
  if (!state.matches.every((match) => CACHEABLE_ROUTES.has(match.route.id))) return null;
  // A logged-in user's header names them; a toast is said once.
  const root = state.loaderData.root as { user?: unknown; toast?: unknown } | undefined;
  if (root?.user || root?.toast) return null;
  const data = stableText({ loaderData: state.loaderData, errors: state.errors });
  return data === null ? null : `${state.statusCode} ${request.url}\n${data}`;
}

/** The kept page for `key` with `nonce` in place of the placeholder, or null. */
export function cachedPage(key: string, nonce: string, at = Date.now()): string | null {
  const entry = entries.get(key);
  if (!entry) return null;
  if (at - entry.at > MAX_AGE_MS) {
    forget(key);
    return null;
  }
  return entry.html.replaceAll(NONCE_PLACEHOLDER, nonce);
}

/** Keeps a page rendered with NONCE_PLACEHOLDER as its nonce. */
export function keepPage(key: string, html: string, at = Date.now()): void {
  forget(key);
  entries.set(key, { html, at });
  keptChars += key.length + html.length;
  // Oldest first out: a burst keeps the few pages it asks for.
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES && keptChars <= MAX_CHARS) break;
    forget(oldest);
  }
}

function forget(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  keptChars -= key.length + entry.html.length;
  entries.delete(key);
}

/** How many pages are kept, and their size in characters (keys included). */
export function renderCacheSize() {
  return { pages: entries.size, chars: keptChars };
}

/**
 * The loaders' data as text that differs whenever the data does: JSON, with dates, maps, sets,
 * undefined and big integers marked so none reads as another. Null for anything else (a
 * promise, a class the text cannot describe): such a page is not kept.
 */
export function stableText(value: unknown): string | null {
  let refused = false;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, converted: unknown) {
    const original = this[key];
    if (original instanceof Date) return { $date: original.getTime() };
    if (original === undefined) return { $undefined: true };
    if (typeof original === "bigint") return { $bigint: original.toString() };
    if (original instanceof Map) return { $map: [...original.entries()] };
    if (original instanceof Set) return { $set: [...original.values()] };
    if (original !== null && typeof original === "object") {
      const prototype = Object.getPrototypeOf(original) as unknown;
      if (prototype !== Object.prototype && prototype !== null && !Array.isArray(original)) {
        // An error page's ErrorResponse is plain data; anything else (a promise, a stream) is not.
        if (!isErrorResponse(original)) refused = true;
      }
    }
    if (typeof original === "function" || typeof original === "symbol") refused = true;
    return converted;
  });
  return refused ? null : text;
}

function isErrorResponse(value: object): boolean {
  return "status" in value && "statusText" in value && "internal" in value;
}
