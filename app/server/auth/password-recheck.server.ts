import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { accountLockedUntil } from "./second-factor/account-lock.server";
import { recordLoginEvent } from "./login/login-events.server";
import {
  ADMIN_LOGIN_POLICY,
  CUSTOMER_LOGIN_POLICY,
  remainingAttemptsWarning,
} from "./login/login-policies.server";
import { verifyPassword } from "./password.server";
import {
  countPasswordFailure,
  endPasswordRun,
  passwordCheckCaller,
  passwordRun,
  runLockedUntil,
} from "./login/password-runs.server";

const PASSWORD_RECHECK_WRONG = "パスワードが正しくありません";

export type PasswordRecheck =
  | { ok: true }
  | { ok: false; reason: "invalid"; status: 401; message: string; warning: string | null }
  | { ok: false; reason: "locked"; status: 423; lockedUntil: Date };

/**
 * The account's own password asked again before a change to how it logs in (the
 * authenticator). A wrong one counts on the account exactly as at its login and is
 * recorded like one, so a logged-in session brings no more guesses than the login does (in
 * the same run: this device's when it carries the account's device cookie).
 */
export async function recheckPassword(
  request: Request,
  userId: number,
  password: string,
): Promise<PasswordRecheck> {
  const at = now();
  const user = db().select().from(users).where(eq(users.id, userId)).get();
  if (!user)
    return { ok: false, reason: "invalid", status: 401, message: PASSWORD_RECHECK_WRONG, warning: null };
  const own = user.isAdmin ? ADMIN_LOGIN_POLICY : CUSTOMER_LOGIN_POLICY;
  const record = (outcome: "failure" | "locked") =>
    recordLoginEvent({ kind: own.kind, email: user.email, userId: user.id, outcome, request });
  const { counter, run } = await passwordRun(request, user, own.lockMinutes, at);
  const lockedUntil = accountLockedUntil(user.id, at) ?? runLockedUntil(run, own, at);
  if (lockedUntil) {
    record("locked");
    return { ok: false, reason: "locked", status: 423, lockedUntil };
  }
  if (await verifyPassword(password, user.passwordHash, passwordCheckCaller(request))) {
    // As at the login: a right password ends the run of wrong ones, not the wrong codes.
    endPasswordRun(counter);
    return { ok: true };
  }
  const after = countPasswordFailure(counter, own, at);
  record("failure");
  const lockedNow = runLockedUntil(after, own, at);
  if (lockedNow) return { ok: false, reason: "locked", status: 423, lockedUntil: lockedNow };
  return {
    ok: false,
    reason: "invalid",
    status: 401,
    message: PASSWORD_RECHECK_WRONG,
    warning: remainingAttemptsWarning(own.maxFailures - after.failures, own),
  };
}
