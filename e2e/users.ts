import path from "node:path";
import { createCookieSessionStorage } from "@remix-run/node";
import Database from "better-sqlite3";
import { hashPassword } from "../app/server/auth/password.server";

const dbFile = path.resolve(import.meta.dirname, "..", ".tmp", "e2e", "shop.db");
/** The e2e server's secret (e2e/server.mjs): tests can mint sessions in states a browser could be in. */
const SECRET = "e2e-session-secret-0123456789abcdefghijklmnop";

export type TestUser = { id: number; email: string; password: string };

/** A user of its own per test, so parallel tests never share codes, lockouts or sessions. */
export async function createUser(options: {
  email: string;
  password?: string;
  isAdmin?: boolean;
  name?: string;
}): Promise<TestUser> {
  const password = options.password ?? "Test-Password-2025";
  const passwordHash = await hashPassword(password);
  const db = new Database(dbFile);
  try {
    const row = db
      .prepare("insert into users (email, name, password_hash, is_admin) values (?, ?, ?, ?) returning id")
      .get(options.email.toLowerCase(), options.name ?? "テスト", passwordHash, options.isAdmin ? 1 : 0) as {
      id: number;
    };
    return { id: row.id, email: options.email.toLowerCase(), password };
  } finally {
    db.close();
  }
}

const storage = createCookieSessionStorage({
  cookie: { name: "shop_session", secrets: [SECRET], httpOnly: true, sameSite: "lax", path: "/" },
});

/** A session cookie header value with the given session data. */
export async function mintSession(data: Record<string, unknown>): Promise<string> {
  const session = await storage.getSession();
  for (const [key, value] of Object.entries(data)) session.set(key, value);
  return (await storage.commitSession(session)).split(";")[0] ?? "";
}

/** Puts a minted session into a browser context, as if that browser had logged in. */
export async function putSessionCookie(
  context: import("@playwright/test").BrowserContext,
  baseURL: string,
  data: Record<string, unknown>,
) {
  const [name = "", value = ""] = (await mintSession(data)).split("=");
  await context.addCookies([{ name, value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}

/** A browser logged in as a fresh admin who has completed the second factor. */
export async function loginAsAdmin(
  context: import("@playwright/test").BrowserContext,
  baseURL: string,
  email: string,
) {
  const admin = await createUser({ email, isAdmin: true });
  await putSessionCookie(context, baseURL, {
    userId: admin.id,
    sessionVersion: 1,
    loggedInAt: Date.now(),
    adminVerifiedAt: Date.now(),
  });
  return admin;
}
