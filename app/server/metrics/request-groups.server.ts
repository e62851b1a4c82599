/**
 * Which part of the shop a request went to, as one of a few words: the requests' metric is
 * labelled with it, never with the path itself (every order number, token and scanner's guess
 * would be a series of its own, and Prometheus keeps each one). Pure and cheap: the edge asks it
 * once per request.
 */
export const REQUEST_GROUPS = [
  "storefront",
  "admin",
  "api",
  "download",
  "media",
  "static",
  "system",
  "other",
] as const;
export type RequestGroup = (typeof REQUEST_GROUPS)[number];

/** The first segment of the storefront's, the checkout's and the account's pages (app/routes.ts, aliases too). */
const STOREFRONT_PAGES = new Set([
  "",
  "about",
  "terms",
  "privacy",
  "privacy-policy",
  "legal-notice",
  "contact",
  "email-support",
  "order-form",
  "orders",
  "order-lookup",
  "order-confirmation",
  "order-confirmation-old",
  "email-verification",
  "payment",
  "payment-complete",
  "login",
  "logout",
  "register",
  "verify-email",
  "registration-success",
  "registration-complete",
  "account",
  "purchase-history",
  "forgot-password",
  "reset-password",
  "video",
]);

// A Map, not an object: a path such as /constructor must not find Object's own properties.
const FIXED = new Map<string, RequestGroup>([
  ["admin", "admin"],
  ["admin-login", "admin"],
  ["admin-2fa-verify", "admin"],
  ["api", "api"],
  ["download", "download"],
  ["media", "media"],
  ["home-banner", "media"],
  ["assets", "static"],
  ["healthz", "system"],
  ["readyz", "system"],
  ["metrics", "system"],
]);

export function requestGroup(pathname: string): RequestGroup {
  // A page's single-fetch data (`/orders/x.data`, `/_root.data`) belongs to its page.
  const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  const slash = path.indexOf("/", 1);
  const first = path.slice(1, slash === -1 ? undefined : slash);
  return FIXED.get(first) ?? (STOREFRONT_PAGES.has(first) ? "storefront" : "other");
}

/** 2xx, 3xx, 4xx or 5xx: a handful of values whatever the answer. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}
