// A session cookie minted outside the server, for tests and benchmarks that need a browser in
// a given state (an admin past the second factor, a customer). Sessions live on the server
// (app/server/http/session.server.ts): this writes the row the way it does (keyed by the
// token's SHA-256) into the server's database and signs the token with the server's secret.
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The `Cookie` header value (name=value) for a new session holding `data`. */
export async function mintSessionCookie({ databasePath, secret, data }) {
  const token = crypto.randomBytes(32).toString("base64url");
  const userId = typeof data.userId === "number" ? data.userId : null;
  const kind = userId === null ? "guest" : data.adminVerifiedAt ? "admin" : "customer";
  const db = new Database(databasePath);
  try {
    db.prepare(
      "insert into sessions (id, user_id, kind, data, last_seen_at, expires_at) values (?, ?, ?, ?, ?, ?)",
    ).run(
      crypto.createHash("sha256").update(token).digest("base64url"),
      userId,
      kind,
      JSON.stringify(data),
      Date.now(),
      Date.now() + DAY_MS,
    );
  } finally {
    db.close();
  }
  const cookie = createCookie("shop_session", {
    secrets: [secret],
    httpOnly: true,
    sameSite: "lax",
    path: "/",
  });
  return (await cookie.serialize(token)).split(";")[0] ?? "";
}
