import crypto from "node:crypto";
import { createCookie, createSession, type Session } from "@remix-run/node";
import { and, eq, lte, ne, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { prepared } from "../db/prepared.server";
import { sessions, type SESSION_KINDS } from "../db/schema";
import { clientIp } from "./rate-limit.server";
import { DAY_MS, MINUTE_MS, SECOND_MS } from "~/lib/rules/tokyo-date";

export type Toast = {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
};

/** How long a login lasts: 30 days from the login, whatever happens meanwhile. */
export const SESSION_MAX_AGE_SECONDS = (30 * DAY_MS) / SECOND_MS;
/** A session nobody is logged in to (a checkout under way, a toast) lasts a week after its last use, like the drafts. */
const GUEST_IDLE_MS = 7 * DAY_MS;
/** "Last seen" is written at most this often, so reading a page does not always mean a write. */
const LAST_SEEN_PRECISION_MS = MINUTE_MS;

/** Password right, second factor still to come (admins, users with an authenticator app). */
export type PendingLogin = { userId: number; at: number; redirectTo: string };

/**
 * What belongs to a login: logOut (app/server/auth/login/session-login.server.ts) clears all of it,
 * and the compiler checks that its list names every key here.
 */
export type LoginSessionData = {
  userId: number;
  loggedInAt: number;
  pendingLogin: PendingLogin;
  /** When the admin completed the second factor; the admin session lasts 60 minutes from here. */
  adminVerifiedAt: number;
  /** The password-change code was verified at `verifiedAt` by this user; the new password may be set. */
  passwordChange: { userId: number; verifiedAt: number };
};

type SessionData = LoginSessionData & {
  checkoutId: string;
  /** The order just paid for, shown on /payment-complete. */
  lastOrderId: number;
  /** A registration waiting for its e-mail code: the code's subject, and what the code page shows. */
  registration: { id: string; email: string; fromOrder: boolean };
  /**
   * The contests whose 合言葉 this visitor entered: contest id → the code's fingerprint, so a
   * changed code closes the order form again (app/server/catalog/contest-access.server.ts).
   */
  openedContests: Record<string, string>;
};

type FlashData = {
  toast: Toast;
  /** The checkout was started over (too many wrong e-mail codes): what /email-verification shows once. */
  checkoutRestart: { message: string; orderFormUrl: string };
  /** The password change's page moved on by a redirect: the notice the next step shows once (認証コードを送信しました). */
  passwordChangeNotice: { kind: "success"; message: string; at: number };
};

export type ShopSession = Session<SessionData, FlashData>;

type SessionKind = (typeof SESSION_KINDS)[number];

/**
 * Sessions live in the `sessions` table; the cookie carries only a random token (signed, so a
 * forged one is not even looked up). Ending a session deletes its row, so a copy of the cookie
 * taken before a logout opens nothing afterwards.
 */

let cookie: ReturnType<typeof createSessionCookie> | undefined;

function createSessionCookie() {
  const config = env();
  return createCookie(
    // The __Host- prefix pins the cookie to this host over https only.
    config.SECURE_COOKIES ? "__Host-shop_session" : "shop_session",
    {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.SECURE_COOKIES,
      secrets: config.SESSION_SECRETS,
      maxAge: SESSION_MAX_AGE_SECONDS,
    },
  );
}

function sessionCookie() {
  cookie ??= createSessionCookie();
  return cookie;
}

export function sessionCookieName(): string {
  return sessionCookie().name;
}

/**
 * Whether the request carries the shop's session cookie at all (read without a lookup): what is
 * drawn for such a visitor may hold her own data (her name, e-mail, a checkout), so the server
 * entry marks it for no cache to keep.
 */
export function hasSessionCookie(request: Request): boolean {
  const name = sessionCookieName();
  return (request.headers.get("Cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${name}=`));
}

/** The row's key: the token's hash, so the table alone gives nobody a working cookie. */
function rowId(token: string): string {
  return crypto.createHash("sha256").update(token).digest("base64url");
}

/** Where the request that read a session came from: written to the row for the account page. */
const origins = new WeakMap<ShopSession, { userAgent: string | null; ipAddress: string | null }>();
/** Sessions whose next commit must move to a new token (logIn, logOut). */
const renewals = new WeakSet<ShopSession>();
/** A session's token after a renewal (Session.id cannot change), so a second commit finds the new row. */
const renewedTokens = new WeakMap<ShopSession, string>();

/**
 * A page's loaders (root, layouts, the page) run side by side on one Request object (decision
 * 0023's server-runtime patch keeps it one), and each asks for the session: they share one read,
 * so the row is looked up once, and what one loader takes from it (the toast) is not written back
 * by another's commit. Only for GET and HEAD: an action's reads stay separate, as they always were.
 */
const loaderSessions = new WeakMap<Request, Promise<ShopSession>>();

export function getSession(request: Request): Promise<ShopSession> {
  if (request.method !== "GET" && request.method !== "HEAD") return readSession(request);
  let session = loaderSessions.get(request);
  if (!session) {
    session = readSession(request);
    loaderSessions.set(request, session);
  }
  return session;
}

async function readSession(request: Request): Promise<ShopSession> {
  const token: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  const at = now();
  const row =
    typeof token === "string" && token
      ? prepared("session-row", (connection) =>
          connection
            .select()
            .from(sessions)
            .where(eq(sessions.id, sql.placeholder("id")))
            .prepare(),
        ).get({ id: rowId(token) })
      : undefined;
  const live = row && row.expiresAt > at;
  const session = createSession<SessionData, FlashData>(
    live ? (JSON.parse(row.data) as SessionData) : undefined,
    live ? (token as string) : "",
  );
  const origin = {
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    ipAddress: clientIp(request),
  };
  origins.set(session, origin);
  if (live && at.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_PRECISION_MS) {
    db()
      .update(sessions)
      .set({ lastSeenAt: at, expiresAt: expiresAt(session.data, at), ...origin })
      .where(eq(sessions.id, row.id))
      .run();
  }
  return session;
}

/** The next commit gives the session a new token and deletes the old row: a token seen before a login or logout is worth nothing after it. */
export function renewSession(session: ShopSession): void {
  renewals.add(session);
}

function kindOf(data: Partial<SessionData>): SessionKind {
  if (!data.userId) return "guest";
  return data.adminVerifiedAt ? "admin" : "customer";
}

function expiresAt(data: Partial<SessionData>, at: Date): Date {
  return data.userId && data.loggedInAt
    ? new Date(data.loggedInAt + SESSION_MAX_AGE_SECONDS * SECOND_MS)
    : new Date(at.getTime() + GUEST_IDLE_MS);
}

function serialize(token: string, expires: Date): Promise<string> {
  return sessionCookie().serialize(token, { expires, maxAge: undefined });
}

/** Saves the session's values and answers the Set-Cookie header that carries its token. */
export async function commitSession(session: ShopSession): Promise<string> {
  const data = session.data as Partial<SessionData>;
  const at = now();
  const values = { userId: data.userId ?? null, kind: kindOf(data), data: JSON.stringify(data) };
  const expires = expiresAt(data, at);
  let token = renewedTokens.get(session) ?? session.id;
  if (token && renewals.has(session)) {
    db()
      .delete(sessions)
      .where(eq(sessions.id, rowId(token)))
      .run();
    token = "";
  }
  renewals.delete(session);
  if (token) {
    const updated = db()
      .update(sessions)
      .set({ ...values, lastSeenAt: at, expiresAt: expires })
      .where(eq(sessions.id, rowId(token)))
      .returning({ id: sessions.id })
      .get();
    if (updated) return serialize(token, expires);
    // The row is gone: ended elsewhere (logout everywhere, password change) while this request
    // ran. A login ended stays ended; a guest's values carry on in a new row.
    if (data.userId) return serialize("", new Date(0));
  }
  if (Object.keys(data).length === 0) return serialize("", new Date(0));
  token = crypto.randomBytes(32).toString("base64url");
  // Prepared once per connection: every first visit that keeps something (a draft, a toast) starts
  // a row here, and drizzle building the insert anew was most of the commit's cost (`npm run bench:profile`).
  const origin = origins.get(session);
  prepared("session-insert", (connection) =>
    connection
      .insert(sessions)
      .values({
        id: sql.placeholder("id"),
        userId: sql.placeholder("userId"),
        kind: sql.placeholder("kind"),
        data: sql.placeholder("data"),
        lastSeenAt: sql.placeholder("at"),
        expiresAt: sql.placeholder("expires"),
        userAgent: sql.placeholder("userAgent"),
        ipAddress: sql.placeholder("ipAddress"),
      })
      .prepare(),
  ).run({
    id: rowId(token),
    ...values,
    at,
    expires,
    userAgent: origin?.userAgent ?? null,
    ipAddress: origin?.ipAddress ?? null,
  });
  renewedTokens.set(session, token);
  return serialize(token, expires);
}

export type ActiveSession = {
  kind: SessionKind;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  ipAddress: string | null;
  current: boolean;
};

/** The user's sessions still open, newest use first; `current` marks the one asking. */
export function activeSessions(userId: number, current: ShopSession): ActiveSession[] {
  const currentId = currentRowId(current);
  return db()
    .select({
      id: sessions.id,
      kind: sessions.kind,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .all()
    .filter((row) => row.expiresAt > now())
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
    .map(({ id, expiresAt: _expires, ...row }) => ({ ...row, current: id === currentId }));
}

function currentRowId(session: ShopSession): string | null {
  const token = renewedTokens.get(session) ?? session.id;
  return token ? rowId(token) : null;
}

/** Deletes the user's sessions, all of them or all but `keep`; answers how many ended. */
export function deleteUserSessions(userId: number, keep?: ShopSession): number {
  const keepId = keep ? currentRowId(keep) : null;
  return db()
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId))
    .run().changes;
}

/** For the hourly clean-up: sessions past their expiry. */
export function deleteExpiredSessions(): number {
  return db().delete(sessions).where(lte(sessions.expiresAt, now())).run().changes;
}
