/**
 * Where to send someone after logging in, taken from ?redirectTo=. Only a path on
 * this site is accepted; anything else (another origin, a protocol-relative `//host`,
 * a backslash that browsers read as a slash, a javascript: URL, control characters
 * that browsers strip) gives the fallback. Pure, so the browser and the server agree.
 */
const BASE = "http://shop.invalid";
const MAX_LENGTH = 2000;

export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > MAX_LENGTH) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  // Browsers treat "\" as "/" and drop tabs and newlines, so "/\evil.com" or "/\t/evil.com" mean "//evil.com".
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/..//evil.com" normalises to "//evil.com".
  if (path.startsWith("//")) return fallback;
  return path;
}
