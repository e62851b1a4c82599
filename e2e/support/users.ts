import { e2eDbFile } from "./work-dir";
import Database from "better-sqlite3";
import { fastHashPassword } from "../../tests/helpers/fast-password";
import { mintSessionCookie } from "../../scripts/mint-session.mjs";

/** The e2e server's secret (e2e/support/server.mjs): tests can mint sessions in states a browser could be in. */
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
  // A hash at a tiny cost, in the stored format whose parameters the server's check reads: these
  // users are a test's set-up, not its subject (the real cost is tests/server/auth/password.test.ts's;
  // server-edge.spec.ts's login flood hashes for real), and a full-cost hash here and at each of
  // their logins costs half a second of a CPU the shop's server and browser share.
  const passwordHash = await fastHashPassword(password);
  const db = new Database(e2eDbFile());
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

/** A session cookie header value for a new session with the given data. */
export function mintSession(data: Record<string, unknown>): Promise<string> {
  return mintSessionCookie({ databasePath: e2eDbFile(), secret: SECRET, data });
}

/** Ends every session of the user, as logout everywhere or a password change does on the server. */
export function endSessionsOf(userId: number): void {
  const db = new Database(e2eDbFile());
  try {
    db.prepare("delete from sessions where user_id = ?").run(userId);
  } finally {
    db.close();
  }
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
    loggedInAt: Date.now(),
    adminVerifiedAt: Date.now(),
  });
  return admin;
}
