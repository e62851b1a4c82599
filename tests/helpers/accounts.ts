import { eq } from "drizzle-orm";
import { db } from "~/server/db/client.server";
import { users } from "~/server/db/schema";
import { hashPassword } from "~/server/auth/password.server";
import { commitSession, getSession, type ShopSession } from "~/server/http/session.server";

/** A user straight in the database (one scrypt hash, ~0.3 s). */
export async function createUser(
  email: string,
  password: string,
  extra: Partial<typeof users.$inferInsert> = {},
) {
  return db()
    .insert(users)
    .values({ email, name: "テスト 太郎", passwordHash: await hashPassword(password), ...extra })
    .returning()
    .get();
}

export function userByEmail(email: string) {
  return db().select().from(users).where(eq(users.email, email)).get();
}

/** A request as a browser at `ip` would send it (the shop reads the address from X-Shop-Client-Address). */
export function requestFrom(ip: string, init: RequestInit & { url?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("X-Shop-Client-Address", ip);
  headers.set("User-Agent", "Mozilla/5.0 (vitest)");
  return new Request(init.url ?? "http://localhost/login", { ...init, headers });
}

/** A login form posted from `ip`, as /login or /admin-login receives it. */
export function loginPost(
  ip: string,
  fields: Record<string, string | undefined>,
  url = "http://localhost/login",
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.append(name, value);
  return requestFrom(ip, {
    url,
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

export function newSession(): Promise<ShopSession> {
  return getSession(new Request("http://localhost/"));
}

/** The session as the browser would send it back on its next request (through the signed cookie). */
export async function roundTrip(session: ShopSession): Promise<ShopSession> {
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  return getSession(new Request("http://localhost/", { headers: { Cookie: cookie } }));
}
