import type { LoginResult } from "./login.server";
import { ADMIN_LOGIN_POLICY } from "./login-policies.server";
import { logIn } from "./session-login.server";
import type { ShopSession } from "../../http/session.server";

export const ADMIN_LOCKED_MESSAGE = "管理者アカウントがロックされています。15分後に再試行してください";

/** The spec's admin warning: "残り試行回数: N" at 3 or fewer, and at 1 that the next failure locks. */
export function adminAttemptsWarning(remaining: number): string | null {
  if (remaining < 1 || remaining > ADMIN_LOGIN_POLICY.warnAtRemaining) return null;
  const base = `残り試行回数: ${remaining}回`;
  return remaining <= ADMIN_LOGIN_POLICY.finalWarningAtRemaining
    ? `${base}。次に失敗すると${ADMIN_LOGIN_POLICY.lockMinutes}分間ロックされます`
    : base;
}

export type AdminLoginOutcome =
  | { ok: true }
  | {
      ok: false;
      status: 401 | 423 | 429;
      message: string;
      warning: string | null;
      /** Wrong passwords left before the lock (401 only; the JSON call's remainingAttempts). */
      remainingAttempts: number | null;
      lockedUntil: number | null;
      retryAfterSeconds?: number;
    };

/** The admin login after the password step (checkPassword): the second factor starts (/admin-2fa-verify sends the mail code). */
export function logInAdmin(session: ShopSession, result: LoginResult): AdminLoginOutcome {
  if (!result.ok) {
    if (result.reason === "locked")
      return {
        ok: false,
        status: 423,
        message: ADMIN_LOCKED_MESSAGE,
        warning: null,
        remainingAttempts: null,
        lockedUntil: result.lockedUntil.getTime(),
      };
    if (result.reason === "blocked")
      return {
        ok: false,
        status: 429,
        message: result.message,
        warning: null,
        remainingAttempts: null,
        lockedUntil: null,
        retryAfterSeconds: result.retryAfterSeconds,
      };
    return {
      ok: false,
      status: 401,
      message: result.message,
      warning: adminAttemptsWarning(result.remainingAttempts),
      remainingAttempts: result.remainingAttempts,
      lockedUntil: null,
    };
  }
  logIn(session, result.user, { as: "pending-second-factor", redirectTo: "/admin" });
  return { ok: true };
}
