import { sql } from "drizzle-orm";
import { now } from "./clock.server";
import { db } from "./db/client.server";
import { rateLimits } from "./db/schema";

/**
 * A fixed-window counter kept in SQLite, so limits hold across restarts.
 * Returns whether this attempt is allowed (and counts it).
 */
export function hitRateLimit(key: string, limit: number, windowMs: number): { allowed: boolean; retryAfterSeconds: number } {
  const at = now().getTime();
  const windowStart = Math.floor(at / windowMs) * windowMs;
  const row = db()
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count })
    .get();
  const allowed = row.count <= limit;
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.ceil((windowStart + windowMs - at) / 1000) };
}

/** The client's address as the server saw it (remix-serve sits directly on the socket, or behind one proxy). */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("Fly-Client-IP") ?? request.headers.get("X-Forwarded-For")?.split(",")[0];
  return forwarded?.trim() || "unknown";
}
