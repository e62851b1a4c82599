import { createCookieSessionStorage, type Session } from "@remix-run/node";
import { env } from "../core/env.server";

export type Toast = {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
};

/** How long a login lasts: the cookie's lifetime, and the oldest loggedInAt that still counts. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

/** Password right, second factor still to come (admins, users with an authenticator app). */
export type PendingLogin = { userId: number; at: number; redirectTo: string };

/**
 * What belongs to a login: logOut (app/server/auth/session-login.server.ts) clears all of it,
 * and the compiler checks that its list names every key here.
 */
export type LoginSessionData = {
  userId: number;
  sessionVersion: number;
  loggedInAt: number;
  pendingLogin: PendingLogin;
  /** When the admin completed the second factor; the admin session lasts 60 minutes from here. */
  adminVerifiedAt: number;
  /** An authenticator secret being set up, until its first code is confirmed. */
  pendingTotpSecret: string;
  /** The password-change code was verified at `verifiedAt` by this user; the new password may be set. */
  passwordChange: { userId: number; verifiedAt: number };
};

type SessionData = LoginSessionData & {
  checkoutId: string;
  /** The order just paid for, shown on /payment-complete. */
  lastOrderId: number;
  /** A registration waiting for its e-mail code: the code's subject, and what the code page shows. */
  registration: { id: string; email: string; fromOrder: boolean };
};

type FlashData = {
  toast: Toast;
  /** The checkout was started over (too many wrong e-mail codes): what /email-verification shows once. */
  checkoutRestart: { message: string; orderFormUrl: string };
};

export type ShopSession = Session<SessionData, FlashData>;

let storage: ReturnType<typeof createStorage> | undefined;

function createStorage() {
  const config = env();
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      // The __Host- prefix pins the cookie to this host over https only.
      name: config.SECURE_COOKIES ? "__Host-shop_session" : "shop_session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.SECURE_COOKIES,
      secrets: config.SESSION_SECRETS,
      maxAge: SESSION_MAX_AGE_SECONDS,
    },
  });
}

function sessionStorage() {
  storage ??= createStorage();
  return storage;
}

export function getSession(request: Request): Promise<ShopSession> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export function commitSession(session: ShopSession): Promise<string> {
  return sessionStorage().commitSession(session);
}

export function destroySession(session: ShopSession): Promise<string> {
  return sessionStorage().destroySession(session);
}
