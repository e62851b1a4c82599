import { isIP } from "node:net";
import { and, eq, lt, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { env, type TrustProxy } from "../core/env.server";
import { db } from "../db/client.server";
import { prepared } from "../db/prepared.server";
import { rateLimits } from "../db/schema";
import { CLIENT_ADDRESS_HEADER, originOf } from "./client-address.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * A fixed-window counter kept in SQLite, so limits hold across restarts.
 * Returns whether this attempt is allowed (and counts it).
 */
export function hitRateLimit(
  key: string,
  limit: number,
  windowMs: number,
): { allowed: boolean; retryAfterSeconds: number } {
  const at = now().getTime();
  const windowStart = Math.floor(at / windowMs) * windowMs;
  // Prepared once per connection: every new draft and login counts here, and drizzle building the
  // upsert's SQL anew was most of its cost (`npm run bench:profile`).
  const row = prepared("rate-limit-hit", (connection) =>
    connection
      .insert(rateLimits)
      .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ count: rateLimits.count })
      .prepare(),
  ).get({ key, windowStart });
  if (!row) throw new Error("rate limit counter not written");
  const allowed = row.count <= limit;
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.ceil((windowStart + windowMs - at) / 1000) };
}

/**
 * How many hits the current window of `key` holds, without counting one: for a limit that counts
 * only failures (a wrong 合言葉), so it is asked before the attempt and hit only after a failure.
 */
export function rateLimitUsed(key: string, windowMs: number): number {
  const windowStart = Math.floor(now().getTime() / windowMs) * windowMs;
  const row = db()
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)))
    .get();
  return row?.count ?? 0;
}

/** Counters are kept this long: longer than any window a limit uses (an hour today, a day at most). */
const WINDOWS_KEPT_MS = 2 * DAY_MS;

/** For the hourly clean-up: counters of windows long over, which no limit reads any more. */
export function deleteOldRateLimitWindows(): number {
  return db()
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, now().getTime() - WINDOWS_KEPT_MS))
    .run().changes;
}

/**
 * The client's address for per-origin limits and login records, or null when none is known.
 * The edge has applied TRUST_PROXY already (it alone sees the socket), so the app reads the one
 * header it sets and believes no other; null only for a request that did not come through the
 * edge (a test's, or a value that is not an address).
 */
export function clientIp(request: Request): string | null {
  const address = request.headers.get(CLIENT_ADDRESS_HEADER)?.trim();
  return address && isIP(address) ? address : null;
}

/**
 * The key of a per-origin limit, or null when the client's address is not known: then the
 * limit is not counted at all, since one shared bucket would let anyone lock everyone out
 * (per-account and per-e-mail limits still hold). Every per-origin key is made here.
 */
export function originLimitKey(request: Request, name: string): string | null {
  const address = clientIp(request);
  return address ? `${name}:${originOf(address)}` : null;
}

/** A per-origin limit: counted per client address, allowed without counting when none is known. */
export function hitOriginLimit(
  request: Request,
  name: string,
  limit: number,
  windowMs: number,
): { allowed: boolean; retryAfterSeconds: number } {
  const key = originLimitKey(request, name);
  return key ? hitRateLimit(key, limit, windowMs) : { allowed: true, retryAfterSeconds: 0 };
}

/** The line start-up logs, so whoever runs the shop sees whose address the limits count. */
export function trustProxyNotice(trust: TrustProxy = env().TRUST_PROXY): string {
  const limits = "IPアドレスごとの回数制限は有効です（IPv6 は /64 ごと）";
  if (trust === "none")
    return `TRUST_PROXY=none: 接続してきた相手（ソケットの接続元）をクライアントとみなします。前にプロキシがある場合は fly または段数を指定してください（${limits}）`;
  if (trust === "fly")
    return `TRUST_PROXY=fly: クライアントのIPアドレスは Fly-Client-IP から読みます（${limits}）`;
  return `TRUST_PROXY=${trust}: クライアントのIPアドレスは X-Forwarded-For の右から${trust}番目の値です（${limits}）`;
}

/** The Retry-After header of a refusal that says when to come back (rate limits, busy hashing). */
export function retryAfterHeaders(refusal: {
  status: number;
  retryAfterSeconds?: number;
}): Record<string, string> | undefined {
  return refusal.retryAfterSeconds ? { "Retry-After": String(refusal.retryAfterSeconds) } : undefined;
}
