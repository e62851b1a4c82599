/**
 * The minimal app's server entry: Remix's own default for Node (what the app used while it had
 * none), plus the `edge` the shop's server entry (server/index.ts) asks every build for, so the
 * benchmark's floor is served by the same Express, adapter, compression and request log as the
 * shop. The edge does what a minimal app would: no refusals of its own, no headers added, the
 * usual 64 KiB form limit. Only the shop's type is imported, never its code: the floor must not
 * load the shop.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { ShopEdge } from "../../../../app/server/edge.server";

const FORM_MAX_BYTES = 64 * 1024;

/** TRUST_PROXY as the shop reads it: `fly`, a number of proxies, or `none` (the default). */
function trustProxy(value: string | undefined): ShopEdge["trustProxy"] {
  if (value === "fly") return "fly";
  return value && /^\d+$/.test(value) ? Number(value) : "none";
}

export const edge: ShopEdge = {
  // The socket's peer when nothing stands in front; bench:server has both apps read Fly-Client-IP.
  trustProxy: trustProxy(process.env.TRUST_PROXY),
  siteOrigin: new URL(process.env.SITE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).origin,
  shutdownGraceMs: Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000),
  bodyLimit: () => FORM_MAX_BYTES,
  bodyTooLargeMessage: () => "Payload Too Large",
  secureAnswer: (_request, response) => response,
  staticFileHeaders: () => new Headers(),
  // No database, no loops: nothing to close after the entry has stopped taking requests.
  shutDown: async () => {},
  apiError: (status, message) => Response.json({ error: "エラー", message }, { status }),
  // No sessions: no call is authenticated by a cookie.
  isSessionCookie: () => false,
  // No /metrics: nothing is counted.
  observeRequest: () => {},
  reportCallerGate: () => {},
  // No test hooks: every request on the real clock.
  withRequestClock: (_request, run) => run(),
};

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
): Promise<Response> {
  // Crawlers get the whole page at once, browsers the shell as soon as it is ready (Remix's default).
  const whole = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        ...(whole ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject and Remix logs them; later ones only here.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
