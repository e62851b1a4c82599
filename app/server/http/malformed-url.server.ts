import http from "node:http";

/**
 * A URL whose path holds a malformed percent-encoding (`/%`, `/order-form/%E0%A4%A`, a cut UTF-8
 * sequence) is answered by Express inside remix-serve with a bare "Bad Request" page before the
 * app sees it: its `app.all("*")` route decodes the path as a parameter and fails. Remix itself
 * copes (React Router keeps a segment it cannot decode as it is), so the path is made decodable
 * before Express reads it: every `%` of such a path becomes `%25`, the path then means the very
 * characters that were typed, and the route that serves it answers (the shop's 404 page, or an
 * order form's "contest not found"). Paths that decode are left untouched.
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

const INSTALLED = Symbol.for("shop.decodableRequestPaths");

/**
 * remix-serve is the server (decision 0001: no Express server of our own to maintain), so the
 * only seam before its Express app is Node's HTTP server: each "request" event gets a decodable
 * path first. The server build runs this when it loads, before remix-serve starts listening.
 */
export function makeRequestPathsDecodable(): void {
  const server = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (server[INSTALLED]) return;
  server[INSTALLED] = true;
  const emit = server.emit;
  server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    const request = args[0];
    if (event === "request" && request instanceof http.IncomingMessage && request.url)
      request.url = decodablePath(request.url);
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  };
}
