// Remix's own encoder of single-fetch data (the `.data` answers), so the 503 below reaches the
// browser exactly as a thrown Response would. Not part of its public API: @remix-run/node pins this
// package's version, which the shop patches already (patches/README.md);
// tests/server/core/disk-full.test.ts decodes what it makes.
import { ServerMode } from "@remix-run/server-runtime/dist/mode.js";
import { encodeViaTurboStream } from "@remix-run/server-runtime/dist/single-fetch.js";
import { isOutOfSpace, OUT_OF_SPACE_MESSAGE } from "../core/out-of-space.server";

/**
 * A loader's or action's write that found the disk full (SQLITE_FULL, ENOSPC) is answered 503
 * with the shop's page saying so, never 500 (decision 0042). Remix catches the error before the
 * app sees the answer, and tells the entry's handleError of it with the request first: the request
 * is remembered here, and its answer is redrawn once. A document is redrawn by the root error
 * boundary with a 503 (entry.server throws outOfSpacePage() from its render, which Remix draws
 * as a thrown Response), a `.data` answer (JavaScript on) carries the same 503 to the browser's
 * boundary, or has the page load the document when it was a loader's.
 */
const ranOutOfSpace = new WeakSet<Request>();

/** Called by handleError: whether `error` is a write that found no room (the request is then remembered). */
export function noteOutOfSpace(error: unknown, request: Request): boolean {
  if (!isOutOfSpace(error)) return false;
  ranOutOfSpace.add(request);
  return true;
}

/** Whether the request's loader or action ran out of space and its answer is still to be redrawn (true once). */
export function takeOutOfSpace(request: Request): boolean {
  return ranOutOfSpace.delete(request);
}

const STATUS = { status: 503, statusText: "Service Unavailable" } as const;

/** Thrown from the document's render: Remix draws it with the root error boundary, at 503. */
export function outOfSpacePage(): Response {
  return new Response(OUT_OF_SPACE_MESSAGE, {
    ...STATUS,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" },
  });
}

/**
 * A `.data` answer whose loader or action ran out of space. An action's answer is the 503 error
 * the browser's router throws at the route (its boundary draws the page); a loader's (a page
 * loaded with JavaScript on) has the browser load the page as a document, whose answer is the
 * 503 page above.
 */
export function outOfSpaceData(request: Request, answer: Response): Response {
  const headers = new Headers(answer.headers);
  headers.set("Retry-After", "60");
  if (request.method === "GET") {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
    url.searchParams.delete("_routes");
    headers.set("Location", `${url.pathname}${url.search}`);
    headers.set("X-Remix-Reload-Document", "true");
    return new Response(null, { status: 302, headers });
  }
  const error = { ...STATUS, internal: false, data: OUT_OF_SPACE_MESSAGE };
  return new Response(encodeViaTurboStream({ error }, request.signal, undefined, ServerMode.Production), {
    ...STATUS,
    headers,
  });
}
