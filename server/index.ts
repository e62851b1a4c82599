/**
 * The shop's server: Express with Remix's own adapter (what `remix-serve` is made of), plus what
 * belongs at the edge and cannot be done from inside Remix (decision 0020): the caller's address,
 * refusals before anything is read (cross-site posts, bodies over their route's limit), security
 * headers on every answer (static files too), and a graceful shutdown. Production runs
 * `node server-build/index.js` (this file compiled by `npm run build`); `npm run dev` runs it with
 * tsx and Vite in middleware mode, so both share one edge.
 */
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import path from "node:path";
import { createReadableStreamFromReadable, createRequestHandler, installGlobals } from "@remix-run/node";
import type { ServerBuild } from "@remix-run/node";
// The adapter's request handler is these two pieces with Remix between them; the edge stands
// between them too (the body's limit, the answer's headers), so it takes the pieces themselves
// (the package's index exports only the whole handler; its server module exports them, typed).
import { createRemixHeaders, sendRemixResponse } from "@remix-run/express/dist/server.js";
import compression from "compression";
import express from "express";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import morgan from "morgan";
import type { ShopEdge, ShopLoadContext } from "../app/server/edge.server";
import { BodyLimit, LINGER_MAX_BYTES, LINGER_MAX_MS, keepOrCloseAfter } from "./body-limit";
import {
  CLIENT_ADDRESS_HEADER,
  PEER_ADDRESS_HEADER,
  originOf,
} from "../app/server/http/client-address.server";
import { callerAddress, forwardingHeaderOf, plainAddress } from "./caller-address";
import { CallerGate } from "./caller-gate";
import { crossSiteRefusal, ownOrigins } from "./cross-site";
import { decodablePath } from "./malformed-url";
import { ALLOWED_METHODS, readRequestLine } from "./request-line";

installGlobals({ nativeFetch: true });

const development = process.env.NODE_ENV === "development";
/** The Remix build served; another only for the benchmark's minimal app, served the same way. */
const BUILD_PATH = path.resolve(
  process.env.REMIX_BUILD ?? path.join(import.meta.dirname, "../build/server/index.js"),
);

const viteDevServer = development
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

/** The server build: in development Vite's, loaded afresh for each request (hot reload). */
async function loadBuild(): Promise<ServerBuild> {
  if (viteDevServer) return (await viteDevServer.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
  return (await import(BUILD_PATH)) as ServerBuild;
}

/** The app's side of the edge, exported by app/entry.server.tsx (one copy of every module). */
function edgeOf(build: ServerBuild): ShopEdge {
  return (build.entry.module as unknown as { edge: ShopEdge }).edge;
}

// Loading the build runs the app's start-up (configuration, migrations): a bad one stops here.
const firstBuild = await loadBuild();
let edge = edgeOf(firstBuild);
let shuttingDown = false;

const app = express();
app.disable("x-powered-by");
// Addresses are the edge's own business (TRUST_PROXY), never Express's guess.
app.set("trust proxy", false);

const ADDRESS_HEADER = CLIENT_ADDRESS_HEADER.toLowerCase();
const PEER_HEADER = PEER_ADDRESS_HEADER.toLowerCase();
app.use((req, res, next) => {
  // While shutting down, every answer ends its connection, static files and refusals too.
  if (shuttingDown) res.setHeader("Connection", "close");
  const line = readRequestLine(req.method, req.url);
  if ("status" in line) return void answerRequestLine(req, res, line.status).catch(next);
  // The absolute form's path is what Remix sees too (remixUrl reads originalUrl).
  if (line.path !== req.url) req.originalUrl = line.path;
  req.url = decodablePath(line.path);
  if (edge.trustProxy === "none" && !warnedOfProxy) warnOfProxy(req);
  const address = callerAddress(req, edge.trustProxy);
  if (address) req.headers[ADDRESS_HEADER] = address;
  else delete req.headers[ADDRESS_HEADER];
  const peer = req.socket.remoteAddress;
  if (peer) req.headers[PEER_HEADER] = plainAddress(peer);
  else delete req.headers[PEER_HEADER];
  // Every answer is counted for /metrics once it has gone out (or its connection closed):
  // static files and refusals too. A clock read and one histogram observation.
  const started = performance.now();
  const pathname = req.path;
  res.once("close", () =>
    edge.observeRequest(pathname, res.statusCode, (performance.now() - started) / 1000),
  );
  next();
});

/**
 * Requests that carry a proxy's word while TRUST_PROXY=none: the shop is behind a proxy it was
 * not told of (every visitor is then one caller, the proxy, and /metrics is as open as the proxy),
 * or a caller is trying its luck. Said once, at the first such request: the admin reads the log.
 */
let warnedOfProxy = false;
function warnOfProxy(req: ExpressRequest): void {
  const header = forwardingHeaderOf(req);
  if (!header) return;
  warnedOfProxy = true;
  console.warn(
    `[server] ${header} ヘッダー付きのリクエストを受けました。プロキシの後ろで動かす場合は TRUST_PROXY（fly、またはプロキシの段数）を設定してください。TRUST_PROXY=none のままでは全員が一つの接続元として数えられ、/metrics はトークンなしでは読めません`,
  );
}

app.use(compression());

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  const staticHeaders = (res: http.ServerResponse, file: string) => {
    for (const [name, value] of edge.staticFileHeaders(`/${path.basename(file)}`)) res.setHeader(name, value);
  };
  // The build's assets have content hashes in their names: cached for a year, never asked again.
  // Everything else in build/client (public/: the favicon, the licence list) for an hour.
  const client = path.resolve(path.dirname(BUILD_PATH), "../client");
  app.use(
    "/assets",
    express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", setHeaders: staticHeaders }),
  );
  app.use(express.static(client, { maxAge: "1h", setHeaders: staticHeaders }));
}

app.use(morgan("tiny"));

const gate = new CallerGate({
  onTakenBack: (caller, heldMs, what) =>
    console.warn(`[server] ${caller}: ${Math.round(heldMs / 1000)} 秒続いた ${what} の順番を戻しました`),
});
edge.reportCallerGate(() => gate.reading());
/**
 * The reason every request's `ended` aborts with. Without one, abort() builds a DOMException and
 * its stack trace for each answer: 1.2 % of a draft save's CPU (`npm run bench:profile`), and
 * nothing reads the reason.
 */
const ANSWER_ENDED = "answered or connection closed";
app.use((req, res, next) => {
  const address = req.headers[ADDRESS_HEADER];
  const caller = typeof address === "string" ? originOf(address) : "unknown";
  // The request's end is known before it waits: a connection that closes while it waits leaves
  // the line, and one that closed before it got here (during a static file's look-up) never joins.
  const ended = new AbortController();
  res.once("close", () => ended.abort(ANSWER_ENDED));
  if (req.socket.destroyed) ended.abort(ANSWER_ENDED);
  void gate.enter(caller, ended.signal, `${req.method} ${req.path}`).then((outcome) => {
    if (outcome === "refused") return void busy(req, res).catch(next);
    if (outcome === "admitted") handleWithRemix(req, res).catch(next);
  });
});

app.use((error: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
  console.error(`[server] ${req.method} ${req.originalUrl}`, error);
  if (res.headersSent) return next(error);
  res.status(500).type("text/plain; charset=utf-8").send("エラーが発生しました");
});

/**
 * One request through Remix, with the edge around it: a cross-site post is refused, a body is
 * counted against its route's limit (declared or chunked), the answer gets its headers, and a
 * body nobody read is thrown away (or the connection closed) behind it.
 */
async function handleWithRemix(req: ExpressRequest, res: ExpressResponse): Promise<void> {
  const build = viteDevServer ? await loadBuild() : firstBuild;
  if (viteDevServer) edge = edgeOf(build);
  const handle = handlerFor(build);
  const pathname = req.path;

  const refusal = crossSiteRefusal(
    req,
    pathname,
    ownOrigins(req, edge.siteOrigin, edge.siteOrigin.startsWith("https:")),
    edge.isSessionCookie,
  );
  if (refusal) {
    if (pathname.startsWith("/api/")) await send(req, res, edge.apiError(refusal.status, refusal.message));
    else await refuse(req, res, handle, refusal.status === 415 ? 403 : refusal.status, refusal.message);
    return;
  }

  const limit = edge.bodyLimit(pathname.replace(/\.data$/, ""));
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return refuse(req, res, handle, 413, edge.bodyTooLargeMessage(limit));

  const controller = new AbortController();
  let counted: BodyLimit | undefined;
  let body: ReadableStream<Uint8Array> | undefined;
  if (req.method !== "GET" && req.method !== "HEAD") {
    counted = new BodyLimit(limit, () => {
      req.unpipe(counted);
      req.pause();
      controller.abort();
      void refuse(req, res, handle, 413, edge.bodyTooLargeMessage(limit));
    });
    req.pipe(counted);
    body = createReadableStreamFromReadable(counted);
  }
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const request = new Request(remixUrl(req), {
    method: req.method,
    headers: createRemixHeaders(req.headers),
    signal: controller.signal,
    ...(body && { body, duplex: "half" }),
  });
  const context: ShopLoadContext = {
    // `close` follows `finish` when the answer went whole, and comes alone when the connection was cut.
    responseSent: new Promise((resolve) => res.once("close", () => resolve(res.writableFinished))),
  };
  const response = await edge.withRequestClock(request, () => handle(request, context));
  if (res.headersSent || counted?.over) return;
  if (counted && !req.complete) await keepOrCloseAfter(req, res, counted);
  if (req.socket.destroyed) return;
  await send(req, res, edge.secureAnswer(request, response));
}

/** `OPTIONS *`, TRACE, or a request target that is neither a path nor an http(s) URL (request-line.ts). */
async function answerRequestLine(req: ExpressRequest, res: ExpressResponse, status: 204 | 400 | 405) {
  const text =
    status === 204 ? null : status === 405 ? "許可されていないメソッドです" : "不正なリクエストです";
  const answer = new Response(text, {
    status,
    headers: {
      Allow: ALLOWED_METHODS,
      "Cache-Control": "no-store",
      ...(text !== null && { "Content-Type": "text/plain; charset=utf-8" }),
    },
  });
  await send(req, res, edge.secureAnswer(new Request(`${req.protocol}://localhost/`), answer));
}

/** A caller with too many requests at once (caller-gate.ts): refused before anything renders. */
async function busy(req: ExpressRequest, res: ExpressResponse): Promise<void> {
  const answer = new Response("ただいま混み合っています。しばらくしてから再度お試しください。", {
    status: 429,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1", "Cache-Control": "no-store" },
  });
  // A body still coming is not waited for: the connection ends behind the answer.
  if (req.method !== "GET" && req.method !== "HEAD" && !req.complete) res.setHeader("Connection", "close");
  await send(req, res, edge.secureAnswer(new Request(remixUrl(req)), answer));
}

const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>();
function handlerFor(build: ServerBuild) {
  let handler = handlers.get(build);
  if (!handler) {
    handler = createRequestHandler(build, development ? "development" : "production");
    handlers.set(build, handler);
  }
  return handler;
}

/** The URL Remix sees: this host as the caller named it, and the path exactly as sent. */
function remixUrl(req: ExpressRequest): string {
  const host = req.headers.host && /^[\w.:[\]-]+$/.test(req.headers.host) ? req.headers.host : "localhost";
  return `${req.protocol}://${host}${req.originalUrl}`;
}

async function send(req: ExpressRequest, res: ExpressResponse, response: Response): Promise<void> {
  if (res.headersSent) return;
  // While shutting down, kept-alive connections end with this answer so the server can close.
  if (shuttingDown) res.setHeader("Connection", "close");
  try {
    await sendRemixResponse(res, response);
  } catch (error) {
    // The caller went away mid-answer (a file stops being read then: file-response.server.ts):
    // nobody is left to answer, and it is no error of the shop's.
    if (res.destroyed && !res.writableFinished) return;
    throw error;
  }
}

/**
 * The shop's own page for a request refused at the edge (a cross-site post, a body too large):
 * drawn by Remix as a GET of a path no route claims, with the refusal in its context (the 404
 * route throws it, the root error boundary draws it). The caller's cookies are left out: the
 * page names nobody. A body is not read any further: the connection closes behind the answer.
 */
async function refuse(
  req: ExpressRequest,
  res: ExpressResponse,
  handle: ReturnType<typeof createRequestHandler>,
  status: 403 | 413,
  message: string,
): Promise<void> {
  if (res.headersSent) return;
  const page = new Request(new URL("/refused", remixUrl(req)), {
    headers: { Accept: "text/html", "Accept-Language": req.headers["accept-language"] ?? "ja" },
  });
  const response = edge.secureAnswer(page, await handle(page, { refusal: { status, message } }));
  if (res.headersSent) return;
  const unread = req.method !== "GET" && req.method !== "HEAD" && !req.complete;
  if (!unread) return send(req, res, response);
  // The caller may still be sending. The whole answer goes out at once, then the connection ends
  // after a short linger that throws away what is still coming (LINGER_*), as web servers close:
  // closing at once would reset the connection while the caller's bytes arrive, and a caller that
  // reads only after sending (most do) would lose the answer in the reset.
  req.unpipe();
  const html = Buffer.from(await response.text());
  const headers = Object.fromEntries(response.headers);
  res.writeHead(response.status, {
    ...headers,
    Connection: "close",
    "Content-Length": html.length,
    // Not held back by compression until the end: the caller reads it while the linger runs.
    "Cache-Control": `${headers["cache-control"] ?? "no-store"}, no-transform`,
  });
  res.write(html);
  let thrownAway = 0;
  const end = () => {
    clearTimeout(timer);
    req.removeListener("data", count);
    if (!res.writableEnded) res.end();
  };
  const count = (chunk: Buffer) => {
    thrownAway += chunk.length;
    if (thrownAway > LINGER_MAX_BYTES) end();
  };
  const timer = setTimeout(end, LINGER_MAX_MS);
  req.on("data", count);
  req.once("end", end);
  req.resume();
}

const port = Number(process.env.PORT ?? 3000);
/**
 * The HTTP server reads requests; the socket is opened by a listener of the entry's own, which
 * hands each connection to it (`connection`, as Node's documentation allows). Stopping the
 * listener then stops new connections and nothing else: http.Server's own close() would also cut
 * the kept-alive connections that are idle at that moment, where a client may be sending its next
 * request (see shutDown). The HTTP server is told it listens, so that Node keeps checking its
 * connections' header and request timeouts as for a server that opened its own socket.
 */
const server = http.createServer(app);
const listener = net.createServer((socket) => server.emit("connection", socket));
listener.on("error", (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `[server] ポート ${port} は使用中です（別のサーバーが動いていませんか）`
      : `[server] ${error.message}`,
  );
  process.exit(1);
});
listener.listen(port, process.env.HOST ?? undefined, () => {
  server.emit("listening");
  console.log(`[server] http://localhost:${port}`);
});

// CONNECT (a proxy's tunnel) never reaches Express: Node hands its raw socket here, and without
// this would cut the connection with no answer at all.
server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
});

/**
 * SIGTERM (fly.io's stop, `docker stop`), SIGINT (Ctrl-C) or SIGHUP (its terminal closed): no new
 * connections; every request already sent is answered — those in flight finish (SHUTDOWN_GRACE_MS
 * at most, then their connections are closed: an upload cut there is resumed later, a payment is
 * recorded by its webhook or the recovery at start-up), and each answer closes its connection
 * (`Connection: close`). A kept-alive connection with no request on it is not closed by the
 * server: its client may be sending the next request right now, and closing it then cuts that
 * request off unanswered (4 of a load test's requests were, when idle connections were closed
 * at once). It ends by its keep-alive timeout (Node's 5 s), which the client was told
 * (`Keep-Alive: timeout=5`) and closes before; a request that comes on it meanwhile is answered.
 * Then the app stops its loops, lets the outbox finish the mail it is sending, checkpoints and
 * closes SQLite. Exit 0: the stop was asked for.
 */
async function shutDown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`[server] ${signal}: 受付を停止し、処理中のリクエストの完了を待っています`);
  // The listener's close: no new connections, and done once every connection it opened has ended.
  const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
  const grace = new Promise<"late">((resolve) =>
    setTimeout(() => resolve("late"), edge.shutdownGraceMs).unref(),
  );
  if ((await Promise.race([closed, grace])) === "late") {
    console.warn(`[server] ${edge.shutdownGraceMs} ms 以内に終わらなかった接続を閉じます`);
    server.closeAllConnections();
  }
  await viteDevServer?.close();
  await edge.shutDown();
  console.log("[server] 停止しました");
  process.exit(0);
}
// `on`, not `once`: Ctrl-C in a terminal reaches both the demo script and this process, and the
// second signal must not end the shutdown half-way.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
  process.on(signal, () => void shutDown(signal));
