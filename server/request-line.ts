/**
 * Request lines that are not a plain path, which scanners and proxies send all day and which
 * reached Remix as URLs it cannot read (500 and a stack trace in the log). RFC 9112 §3.2: a server
 * accepts the absolute form (`GET http://example.com/a HTTP/1.1`) and serves its path, whatever
 * host it names (this server serves only itself); `*` is only for `OPTIONS`, which asks what the
 * server as a whole allows; TRACE echoes a request back (cross-site tracing), so it is refused.
 */

/** The methods some address of the shop answers (the JSON calls take PUT, PATCH and DELETE). */
export const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

export type RequestLine = { path: string } | { status: 204 | 400 | 405 };

export function readRequestLine(method: string, target: string): RequestLine {
  if (method === "TRACE" || method === "CONNECT") return { status: 405 };
  if (target === "*") return { status: method === "OPTIONS" ? 204 : 400 };
  if (target.startsWith("/")) return { path: target };
  if (!/^https?:\/\//i.test(target)) return { status: 400 };
  try {
    const url = new URL(target);
    return { path: `${url.pathname}${url.search}` };
  } catch {
    return { status: 400 };
  }
}
