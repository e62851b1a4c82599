import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { env } from "../core/env.server";
import { followDatabaseRole } from "../db/client.server";
import { databaseRole } from "../db/replica.server";

/**
 * With LiteFS only the primary may write. fly.io's proxy replays a request on another machine
 * when the answer carries `fly-replay: instance=<machine id>` (its body is never shown), so a
 * replica answers that way, naming the primary from LiteFS's `.primary` file (decision 0019):
 *
 * - every request that may write (anything but GET, HEAD, OPTIONS) at once, before the app reads it;
 * - a GET whose loader turns out to write (a session renewed, a download counted, a toast taken):
 *   the replica's connection only reads, the write fails before anything is written, and the
 *   answer the app was about to send is replaced by the replay.
 */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function flyReplayHeaders(primaryHost: string): Record<string, string> {
  return {
    "fly-replay": `instance=${primaryHost}`,
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  };
}
const REPLAY_BODY = "この操作はプライマリーのサーバーで処理します。";

type RequestState = { wroteOnReplica: boolean };
const requests = new AsyncLocalStorage<RequestState>();

/** A database write refused because this is a replica: SQLite's answer under `query_only` (and LiteFS's). */
function isReadOnlyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_READONLY" || (typeof code === "string" && code.startsWith("SQLITE_READONLY_"));
}

/**
 * Called with what a loader threw (secureRouteModules wraps every route): a write refused on a
 * replica marks the request, whose answer then becomes the replay. True when it did.
 */
export function noteWriteOnReplica(error: unknown): boolean {
  const state = requests.getStore();
  if (!state || !isReadOnlyError(error)) return false;
  state.wroteOnReplica = true;
  return true;
}

function answerReplay(
  response: http.ServerResponse,
  writeHead: http.ServerResponse["writeHead"],
  host: string,
) {
  for (const name of response.getHeaderNames()) response.removeHeader(name);
  writeHead.call(response, 409, flyReplayHeaders(host));
}

/** Serves one request on a replica: writes are replayed at once, reads watched for a write. */
function onReplica(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  host: string,
  handle: () => boolean,
): boolean {
  if (!READS.has(request.method ?? "GET")) {
    // The body is not read: fly.io's proxy holds it and sends it again to the primary.
    request.resume();
    response.writeHead(409, flyReplayHeaders(host)).end(REPLAY_BODY);
    return true;
  }
  const state: RequestState = { wroteOnReplica: false };
  const writeHead = response.writeHead;
  const write = response.write;
  const end = response.end;
  let replaced = false;
  // Only an answer not yet begun can become the replay (a page already streaming goes on as it is).
  const replaying = (response: http.ServerResponse) =>
    replaced || (state.wroteOnReplica && !response.headersSent);
  response.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!replaying(this)) return Reflect.apply(writeHead, this, args) as http.ServerResponse;
    if (!replaced) answerReplay(this, writeHead, host);
    replaced = true;
    return this;
  } as typeof writeHead;
  response.write = function (this: http.ServerResponse, ...args: Parameters<typeof write>) {
    if (!replaying(this)) return Reflect.apply(write, this, args) as boolean;
    this.writeHead(409);
    return true;
  } as typeof write;
  response.end = function (this: http.ServerResponse, ...args: unknown[]) {
    if (!replaying(this)) return Reflect.apply(end, this, args) as http.ServerResponse;
    this.writeHead(409);
    return Reflect.apply(end, this, [REPLAY_BODY]) as http.ServerResponse;
  } as typeof end;
  return requests.run(state, handle);
}

const INSTALLED = Symbol.for("shop.flyReplayOnReplicas");

/**
 * Puts the replay in front of the app, at the one seam before remix-serve's Express (as
 * makeRequestPathsDecodable does): each "request" event of Node's HTTP servers. Nothing happens
 * without LITEFS_DIR, or on the primary.
 */
export function replayWritesOnReplicas(): void {
  const server = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (server[INSTALLED]) return;
  server[INSTALLED] = true;
  const emit = server.emit;
  server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    const [request, response] = args;
    const handle = () => Reflect.apply(emit, this, [event, ...args]) as boolean;
    if (
      event !== "request" ||
      !env().LITEFS_DIR ||
      !(request instanceof http.IncomingMessage) ||
      !(response instanceof http.ServerResponse)
    )
      return handle();
    const role = databaseRole();
    followDatabaseRole(role.primary);
    return role.primary ? handle() : onReplica(request, response, role.primaryHost, handle);
  };
}
