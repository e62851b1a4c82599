import { eq } from "drizzle-orm";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import {
  deleteUserSessions,
  renewSession,
  type LoginSessionData,
  type PendingLogin,
  type ShopSession,
} from "../../http/session.server";

/**
 * Logging in and out of a session: the customer login, the admin login with its second
 * factor, the auto-login after paying, logout (customer and admin), and deleting one's
 * own account all go through logIn and logOut, over this one list of the login's keys.
 */

type LoginKey = keyof LoginSessionData;

/** Every session key of a login, by what it holds. Typed so that a key added to LoginSessionData must be listed here. */
const LOGIN_KEYS: Record<LoginKey, "user" | "pending" | "admin" | "password-change"> = {
  userId: "user",
  loggedInAt: "user",
  /** Password right, second factor still to come. */
  pendingLogin: "pending",
  adminVerifiedAt: "admin",
  passwordChange: "password-change",
};

export const LOGIN_SESSION_KEYS = Object.keys(LOGIN_KEYS) as LoginKey[];

function unset(session: ShopSession, part: (typeof LOGIN_KEYS)[LoginKey]): void {
  for (const key of LOGIN_SESSION_KEYS) if (LOGIN_KEYS[key] === part) session.unset(key);
}

export type LogIn =
  /** Logged in: after the password, after the second factor (`admin`: the 60-minute admin session starts), or after paying with a new account. */
  | { as: "user"; admin?: boolean }
  /** Password right, second factor to come: nobody is logged in yet; /admin-2fa-verify takes it from here with `redirectTo`. */
  | { as: "pending-second-factor"; redirectTo: string };

/** Logs the user in on this session, or starts the second factor (see LogIn). */
export function logIn(session: ShopSession, user: { id: number }, how: LogIn = { as: "user" }): void {
  const at = now();
  // A new token at each step: a token planted or seen before the login is worth nothing after it.
  renewSession(session);
  if (how.as === "pending-second-factor") {
    unset(session, "user");
    session.set("pendingLogin", { userId: user.id, at: at.getTime(), redirectTo: how.redirectTo });
    return;
  }
  unset(session, "pending");
  session.set("userId", user.id);
  session.set("loggedInAt", at.getTime());
  if (how.admin) session.set("adminVerifiedAt", at.getTime());
  db().update(users).set({ lastLoginAt: at }).where(eq(users.id, user.id)).run();
}

/**
 * Ends the login on this session: every login key. `"pending-second-factor"` ends only a login
 * still waiting for its second factor (expired, failed, or nothing to wait for); a login
 * already on the session stays.
 */
export function logOut(session: ShopSession, what: "login" | "pending-second-factor" = "login"): void {
  if (what === "pending-second-factor") return unset(session, "pending");
  for (const key of LOGIN_SESSION_KEYS) session.unset(key);
  // The row is deleted at the commit: a copy of the cookie taken before the logout opens nothing.
  renewSession(session);
  // What the visitor was doing shows her name and e-mail (/order-confirmation, /payment,
  // /payment-complete, the registration's code page): not to whoever uses this browser next.
  session.unset("checkoutId");
  session.unset("lastOrderId");
  session.unset("registration");
}

/**
 * The password was changed on this session: every other login of the user ends, and this one
 * carries on under a new token (the next commit), so a copy of its cookie taken before the
 * change opens nothing either. Answers how many other logins ended.
 */
export function keepLoginAfterPasswordChange(userId: number, session: ShopSession): number {
  const ended = endLogins(userId, session);
  renewSession(session);
  return ended;
}

/**
 * Ends every login of this user on every device (password change and reset, authenticator
 * changes, "log out everywhere else"), except the one on `keep` when given: that one stays.
 * Answers how many ended.
 */
export function endLogins(userId: number, keep?: ShopSession): number {
  return deleteUserSessions(userId, keep);
}

/** The login waiting for its second factor on this session, if any. */
export function pendingLoginOf(session: ShopSession): PendingLogin | undefined {
  return session.get("pendingLogin");
}

/** A new login code went out: the pending login's time starts again from now. */
export function restartPendingLogin(session: ShopSession, pending: PendingLogin): void {
  session.set("pendingLogin", { ...pending, at: now().getTime() });
}

/** The password-change code was right: the new password may be set (for as long as the caller allows). */
export function notePasswordChangeVerified(session: ShopSession, userId: number): void {
  session.set("passwordChange", { userId, verifiedAt: now().getTime() });
}

/** When this user's password-change code was verified on this session, or null. */
export function passwordChangeVerifiedAt(session: ShopSession, userId: number): number | null {
  const verified = session.get("passwordChange");
  return verified?.userId === userId ? verified.verifiedAt : null;
}

/** The new password is set: its verification is used up. */
export function endPasswordChange(session: ShopSession): void {
  session.unset("passwordChange");
}
