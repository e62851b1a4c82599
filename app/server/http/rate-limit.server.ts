import { isIP } from "node:net";
import { lt, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { env, type TrustProxy } from "../core/env.server";
import { db } from "../db/client.server";
import { rateLimits } from "../db/schema";

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
  const row = db()
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count })
    .get();
  const allowed = row.count <= limit;
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.ceil((windowStart + windowMs - at) / 1000) };
}

/** Counters are kept this long: longer than any window a limit uses (an hour today, a day at most). */
const WINDOWS_KEPT_MS = 2 * 24 * 60 * 60 * 1000;

/** For the hourly clean-up: counters of windows long over, which no limit reads any more. */
export function deleteOldRateLimitWindows(): number {
  return db()
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, now().getTime() - WINDOWS_KEPT_MS))
    .run().changes;
}

/**
 * The client's address for per-origin limits and login records, or null when none is known.
 * remix-serve does not hand the socket's address to the app, so only the proxy in front can
 * tell it, and TRUST_PROXY says which one there is: `fly` (the edge sets Fly-Client-IP itself,
 * replacing any a client sends), N proxies that each append the address they saw to
 * X-Forwarded-For (the client is the Nth entry from the right; entries further left are
 * whatever the client chose to send), or `none` (every header is the client's own word).
 */
export function clientIp(request: Request, trust: TrustProxy = env().TRUST_PROXY): string | null {
  let address: string | undefined;
  if (trust === "fly") {
    address = request.headers.get("Fly-Client-IP")?.trim();
  } else if (typeof trust === "number") {
    const entries = request.headers.get("X-Forwarded-For")?.split(",") ?? [];
    // Fewer entries than trusted proxies: the request did not come through them all.
    address = entries.length >= trust ? entries[entries.length - trust]?.trim() : undefined;
  }
  return address && isIP(address) ? address : null;
}

/**
 * The key of a per-origin limit, or null when the client's address is not known: then the
 * limit is not counted at all, since one shared bucket would let anyone lock everyone out
 * (per-account and per-e-mail limits still hold). Every per-origin key is made here.
 */
export function originLimitKey(request: Request, name: string): string | null {
  const address = clientIp(request);
  return address ? `${name}:${address}` : null;
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

/** The line start-up logs, so whoever runs the shop sees which address the limits count. */
export function trustProxyNotice(trust: TrustProxy = env().TRUST_PROXY): string {
  if (trust === "none")
    return "TRUST_PROXY=none: 信頼するプロキシがないため、クライアントのIPアドレスは使いません（IPアドレスごとの回数制限は行わず、アカウント・メールアドレスごとの制限のみ有効です）";
  if (trust === "fly")
    return "TRUST_PROXY=fly: クライアントのIPアドレスは Fly-Client-IP から読みます（IPアドレスごとの回数制限は有効です）";
  return `TRUST_PROXY=${trust}: クライアントのIPアドレスは X-Forwarded-For の右から${trust}番目の値です（IPアドレスごとの回数制限は有効です）`;
}

/** The Retry-After header of a refusal that says when to come back (rate limits, busy hashing). */
export function retryAfterHeaders(refusal: {
  status: number;
  retryAfterSeconds?: number;
}): Record<string, string> | undefined {
  return refusal.retryAfterSeconds ? { "Retry-After": String(refusal.retryAfterSeconds) } : undefined;
}
