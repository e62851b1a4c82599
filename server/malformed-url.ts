/**
 * A URL whose path holds a malformed percent-encoding (`/%`, `/order-form/%E0%A4%A`, a cut UTF-8
 * sequence) is made decodable before Remix sees it: every `%` of such a path becomes `%25`, the
 * path then means the very characters that were typed, and the route that serves it answers (the
 * shop's 404 page, or an order form's "contest not found") without Remix logging a warning for each.
 * Paths that decode are left untouched.
 */
export function decodablePath(url: string): string {
  const queryAt = url.search(/[?#]/);
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return path.replaceAll("%", "%25") + (queryAt === -1 ? "" : url.slice(queryAt));
  }
}
