import { enableRequestClocks, withRequestClock } from "./core/clock.server";
import { formatBytes } from "~/lib/rules/format";
import { env, type TrustProxy } from "./core/env.server";
import { db } from "./db/client.server";
import { stopOutboxRetryLoop } from "./mail/outbox.server";
import { stopMediaWorker } from "./media/jobs/worker.server";
import { observeRequest, reportCallerGate } from "./metrics/registry.server";
import { stopCleanUpLoop } from "./startup.server";
import { stopBackupLoop } from "./backups/scheduler.server";
import { stopReplicaWatch } from "./backups/replica-status.server";
import { stopReminderLoop } from "./reminders/reminder-pass.server";
import { MULTIPART_SLACK_BYTES, MAX_FORM_BYTES } from "./http/form.server";
import { apiError } from "./http/json-api.server";
import { hasSessionCookie, sessionCookieName } from "./http/session.server";
import {
  applySecurityHeaders,
  headerTarget,
  staticFileHeaders,
  withEditedHeaders,
} from "./http/security-headers.server";

/**
 * What the server entry (`server/index.ts`, Express) asks of the app. It reaches the app through
 * the Remix server build (`build.entry.module.edge`), so the edge and the routes share one copy
 * of every module: one database connection, one configuration, one set of loops.
 */

/** What Remix's loaders and actions get as `context`, made by the edge for each request. */
export type ShopLoadContext = {
  /** Set by the edge when it hands Remix its own refusal page (a cross-site post, a body too large). */
  refusal?: { status: 403 | 413; message: string };
  /**
   * Settles once the answer is over: true when it was handed whole to the connection (Node's
   * `finish`), false when the connection closed first. A download's end (download-retry.server.ts).
   */
  responseSent?: Promise<boolean>;
};

declare module "@remix-run/node" {
  // Remix's own hook for typing `context` in loaders and actions.
  interface AppLoadContext {
    refusal?: ShopLoadContext["refusal"];
    responseSent?: ShopLoadContext["responseSent"];
  }
}

/**
 * The most a request to `pathname` may send. The back-office's addresses take uploads (videos up
 * to MAX_UPLOAD_BYTES, sent by admins only: each action checks the admin before it reads, and
 * narrows the limit to what its file may be); the webhook takes Stripe's events (1 MiB at most);
 * every other address takes a form or a JSON call of a few hundred bytes.
 */
export const STRIPE_EVENT_MAX_BYTES = 1024 * 1024;
const UPLOAD_PATHS = /^\/(admin|api\/video|api\/orders)\//;

export function bodyLimit(pathname: string): number {
  if (pathname === "/api/stripe/webhook") return STRIPE_EVENT_MAX_BYTES;
  if (UPLOAD_PATHS.test(pathname)) return env().MAX_UPLOAD_BYTES + MULTIPART_SLACK_BYTES;
  return MAX_FORM_BYTES;
}

/** What a caller whose body passed its address's limit is told (the shop's one way of writing sizes). */
export function bodyTooLargeMessage(limit: number): string {
  return `送信内容が大きすぎます（${formatBytes(limit)} まで）。`;
}

/**
 * The headers of an answer Remix made, set where it has not set them: documents get theirs
 * (with the nonce) in entry.server; resource routes, redirects and single-fetch data here.
 * Whatever is drawn for a visitor with a session (logged in, or a checkout under way: her name,
 * e-mail and choices) is never kept by a cache, pages and their `.data` alike.
 */
export function secureAnswer(request: Request, response: Response): Response {
  const documentHeadersSet = response.headers.has("Content-Security-Policy");
  const drawn = /^text\/(html|x-script)/.test(response.headers.get("Content-Type") ?? "");
  const forThisVisitorOnly = drawn && hasSessionCookie(request);
  if (documentHeadersSet && !forThisVisitorOnly) return response;
  return withEditedHeaders(response, (headers) => {
    if (!documentHeadersSet) applySecurityHeaders(headers, headerTarget(request));
    if (forThisVisitorOnly) headers.set("Cache-Control", "private, no-store");
  });
}

/**
 * The end of the process, after the edge has stopped taking requests and let those in flight
 * finish: the loops stop (a retry pass of the outbox finishes the mail it is sending, a media job
 * under way is put back), the WAL is
 * folded into the database file and the connection closed, so a restart opens a clean file.
 */
export async function shutDown(): Promise<void> {
  stopCleanUpLoop();
  // A snapshot under way is left: its .part files are swept by the next, taken an interval after the last good one.
  stopBackupLoop();
  stopReplicaWatch();
  stopReminderLoop();
  // ffmpeg is stopped at once (a transcode may have minutes to go); its job waits for the next start.
  await Promise.all([stopOutboxRetryLoop(), stopMediaWorker()]);
  try {
    const sqlite = db().$client;
    if (sqlite.open) {
      // Under Litestream the WAL is its to fold in (it syncs once more when the server has exited).
      if (!env().LITESTREAM_REPLICATES) sqlite.pragma("wal_checkpoint(TRUNCATE)");
      sqlite.close();
    }
  } catch (error) {
    console.error("[shutdown] closing the database failed", error);
  }
}

export type ShopEdge = {
  trustProxy: TrustProxy;
  /** The site's own origin (SITE_URL): posts from another origin are refused. */
  siteOrigin: string;
  /** How long requests in flight may take to finish after SIGTERM before their connections are closed. */
  shutdownGraceMs: number;
  bodyLimit: typeof bodyLimit;
  bodyTooLargeMessage: typeof bodyTooLargeMessage;
  secureAnswer: typeof secureAnswer;
  staticFileHeaders: typeof staticFileHeaders;
  shutDown: typeof shutDown;
  /** The JSON API's own error body, for refusals of its calls. */
  apiError: typeof apiError;
  /** Whether a cookie's name is the session cookie's (a call carrying it is authenticated by it). */
  isSessionCookie: (name: string) => boolean;
  /** Counts an answer that went out (its path's group, status and seconds) for /metrics. */
  observeRequest: typeof observeRequest;
  /** Hands /metrics the reading of the edge's caller gate. */
  reportCallerGate: typeof reportCallerGate;
  /** Handles a request on its own clock when test hooks are on and it asks to (core/clock.server.ts). */
  withRequestClock: <T>(request: Request, run: () => T) => T;
};

export function shopEdge(): ShopEdge {
  const config = env();
  if (config.ENABLE_TEST_HOOKS) enableRequestClocks();
  return {
    trustProxy: config.TRUST_PROXY,
    siteOrigin: new URL(config.SITE_URL).origin,
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    bodyLimit,
    bodyTooLargeMessage,
    secureAnswer,
    staticFileHeaders,
    shutDown,
    apiError,
    isSessionCookie: (name) => name === sessionCookieName(),
    observeRequest,
    reportCallerGate,
    withRequestClock: (request, run) => withRequestClock(request.headers.get("cookie"), run),
  };
}
