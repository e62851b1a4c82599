import { sql } from "drizzle-orm";
import { now } from "../core/clock.server";
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

/**
 * The client's address for per-address limits and login records. remix-serve does not hand
 * the socket's address to the app, so it comes from the proxy in front (the deployment runs
 * behind one): on fly.io the edge sets Fly-Client-IP itself, replacing any a client sends;
 * elsewhere the last X-Forwarded-For entry is the one the proxy added, while earlier entries
 * are whatever the client chose to send, so they are never used.
 */
export function clientIp(request: Request): string {
  const fly = process.env.FLY_APP_NAME ? request.headers.get("Fly-Client-IP")?.trim() : undefined;
  if (fly) return fly;
  return request.headers.get("X-Forwarded-For")?.split(",").at(-1)?.trim() || "unknown";
}
