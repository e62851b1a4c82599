import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { Writable } from "node:stream";
import { NonceContext } from "./lib/hooks/nonce";
import { htmlResponseStream } from "./server/http/html-stream.server";
import {
  applySecurityHeaders,
  headerTarget,
  createNonce,
  needsDocumentLoad,
  withSecurityHeaders,
} from "./server/http/security-headers.server";
import { shopEdge } from "./server/edge.server";
import {
  noteOutOfSpace,
  outOfSpaceData,
  outOfSpacePage,
  takeOutOfSpace,
} from "./server/http/out-of-space-answer.server";
import { env } from "./server/core/env.server";
import { cachedPage, keepPage, NONCE_PLACEHOLDER, renderCacheKey } from "./server/http/render-cache.server";
import { startUp } from "./server/startup.server";

// Start-up work happens when the server loads this module, before the first request:
// a bad configuration or a failed migration stops the process here.
await startUp();

/** What the server entry (server/index.ts) asks of the app: the same modules the routes use. */
export const edge = shopEdge();

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // A loader or action found the disk full: Remix draws this thrown 503 with the root error boundary.
  if (takeOutOfSpace(request)) throw outOfSpacePage();
  const nonce = createNonce();
  const cacheKey = renderCacheKey(request, remixContext);
  if (cacheKey === null)
    return renderStreaming(request, responseStatusCode, responseHeaders, remixContext, nonce);
  const html = (page: string, cache: "hit" | "miss") => {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // As caches say (X-Cache), for whoever measures the cache: not by default, since it would tell
    // anyone whether the address was drawn recently for someone else.
    if (env().DEBUG_RENDER_CACHE) responseHeaders.set("X-Render-Cache", cache);
    applySecurityHeaders(responseHeaders, headerTarget(request, nonce));
    return new Response(page, { headers: responseHeaders, status: responseStatusCode });
  };
  const cached = cachedPage(cacheKey, nonce);
  if (cached !== null) {
    // Remix encoded the data for the render that is not going to happen.
    void remixContext.serverHandoffStream?.cancel().catch(() => undefined);
    return html(cached, "hit");
  }
  return renderWhole(remixContext, request.url).then(({ page, failed }) => {
    // A page whose rendering reported an error is answered as the streaming render would (500), never kept.
    if (failed) responseStatusCode = 500;
    else keepPage(cacheKey, page);
    return html(page.replaceAll(NONCE_PLACEHOLDER, nonce), "miss");
  });
}

function app(remixContext: EntryContext, url: string, nonce: string) {
  return (
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceContext.Provider>
  );
}

/** A page for the render cache (render-cache.server.ts), rendered whole with the nonce's placeholder. */
function renderWhole(remixContext: EntryContext, url: string) {
  return new Promise<{ page: string; failed: boolean }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failed = false;
    const abortTimer = setTimeout(() => abort(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(app(remixContext, url, NONCE_PLACEHOLDER), {
      nonce: NONCE_PLACEHOLDER,
      onAllReady() {
        clearTimeout(abortTimer);
        const body = htmlResponseStream();
        const sink = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
        });
        sink.on("finish", () => resolve({ page: Buffer.concat(chunks).toString("utf8"), failed }));
        body.pipe(sink);
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        failed = true;
        console.error(error);
      },
    });
  });
}

function renderStreaming(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  nonce: string,
) {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Cleared once everything is rendered: a pending timer would keep the finished render's
    // whole tree in memory for the rest of ABORT_DELAY, hundreds of them under a burst.
    let abortRender = () => {};
    const abortTimer = setTimeout(() => abortRender(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(app(remixContext, request.url, nonce), {
      nonce,
      onAllReady() {
        clearTimeout(abortTimer);
        if (waitForAll) respond();
      },
      onShellReady() {
        if (!waitForAll) respond();
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    abortRender = abort;

    function respond() {
      shellRendered = true;
      const body = htmlResponseStream();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      applySecurityHeaders(responseHeaders, headerTarget(request, nonce));
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    }
  });
}

/**
 * Single-fetch data for a page with its own policy (the payment page), asked from another page:
 * loaded as a document instead, so its CSP applies. Every other answer's headers are the server
 * entry's (edge.server.ts).
 */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (takeOutOfSpace(request)) return outOfSpaceData(request, response);
  if (!needsDocumentLoad(request)) return response;
  const target = headerTarget(request);
  return withSecurityHeaders(
    new Response(null, {
      status: 302,
      headers: { Location: target.pathname, "X-Remix-Reload-Document": "true" },
    }),
    target,
  );
};

/**
 * A loader's error: logged, unless the request was aborted (the visitor left). One that found the
 * disk full is remembered, so its answer is the 503 page instead of a 500 (out-of-space-answer).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  // The 503 thrown above comes back here once; it is the answer, not an error.
  if (error instanceof Response) return;
  noteOutOfSpace(error, request);
  if (!request.signal.aborted) console.error(error);
};
