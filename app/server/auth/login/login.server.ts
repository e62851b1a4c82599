import { eq } from "drizzle-orm";
import type { LoginValues } from "~/lib/schemas/account-schemas";
import { safeRedirect } from "~/lib/rules/safe-redirect";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import { hitOriginLimit } from "../../http/rate-limit.server";
import { commitSession, type ShopSession } from "../../http/session.server";
import { deviceCookieAfterLogin } from "./device-cookie.server";
import { recentFailureRun, recordLoginEvent } from "./login-events.server";
import {
  LOGIN_MESSAGES,
  lockedMessage,
  ownPolicy,
  remainingAttemptsWarning,
  type LoginPolicy,
} from "./login-policies.server";
import { decoyHash, unlessHashingBusy, verifyPassword } from "../password.server";
import {
  countPasswordFailure,
  currentRun,
  endPasswordRun,
  passwordCheckCaller,
  passwordRun,
  runLockedUntil,
  type FailureRun,
  type PasswordCounter,
} from "./password-runs.server";
import { logIn } from "./session-login.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Password login with lockout, shared by the customer login and the admin login:
 * each passes its own policy. The answer never tells whether an e-mail has an
 * account, nor whether it is an admin's: every address has one run of failures,
 * whatever the login it is tried at (an account's on its row, an unknown address's
 * from the login records), and each login answers from that run with its own policy.
 * An account is also locked by its own kind's policy wherever it is tried (an admin
 * after 5); where that lock is not the login's own (an admin at /login), it is kept
 * silently: the attempt is refused as a wrong password and counted, exactly as a
 * customer's would be, so the answers stay those of any account with the same count.
 * 15 quiet minutes after the latest failure start a fresh run.
 *
 * Whose run an attempt counts in (decision 0021, OWASP's device cookies): a browser that has
 * logged in to the account before carries a device cookie for it, and its wrong passwords count
 * in that device's own run; every other client's count in the account's run of untrusted
 * clients (or the unknown address's). A lock of the untrusted clients does not stop a device,
 * so a stranger who knows an address cannot lock its owner out of her own browser. Only the
 * owner's browser holds the cookie, so the answers a stranger sees are the same as before.
 *
 * The policies and their messages: login-policies.server.ts; the runs of wrong passwords:
 * password-runs.server.ts; the second factor's lock: account-lock.server.ts.
 */

export type LoginUser = { id: number; email: string; isAdmin: boolean };

export type LoginResult =
  | {
      ok: true;
      user: LoginUser;
      requiresSecondFactor: boolean;
      /** The device cookie's Set-Cookie header: this browser is the account's device from now on. */
      deviceCookie: string;
    }
  | {
      ok: false;
      reason: "invalid";
      status: 401;
      message: string;
      remainingAttempts: number;
      warning: string | null;
    }
  | { ok: false; reason: "locked"; status: 423; message: string; lockedUntil: Date }
  | { ok: false; reason: "blocked"; status: 429; message: string; retryAfterSeconds: number };

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The run an attempt at a login counts in (passwordRun): an account's, by this device or by the
 * untrusted clients, or for an address without an account the one read from the login records.
 */
async function attemptRun(
  request: Request,
  email: string,
  { found, user }: { found: typeof users.$inferSelect | null; user: typeof users.$inferSelect | null },
  policy: LoginPolicy,
  at: Date,
): Promise<{ counter: PasswordCounter | null; run: FailureRun }> {
  if (user) return passwordRun(request, user, policy.lockMinutes, at);
  // An account this login may not log in to is an untrusted client's: the device cookie of a
  // customer's browser says nothing at the admin login.
  if (found)
    return {
      counter: { device: null, userId: found.id },
      run: currentRun(
        { failures: found.failedLoginCount, lastFailureAt: found.lastFailedLoginAt },
        policy.lockMinutes,
        at,
      ),
    };
  return {
    counter: null,
    run: currentRun(recentFailureRun(email, policy.lockMinutes * MINUTE_MS), policy.lockMinutes, at),
  };
}

/** Checks an e-mail and password under a policy, records the attempt, and counts failures. */
export async function attemptLogin(
  request: Request,
  input: { email: string; password: string },
  policy: LoginPolicy,
): Promise<LoginResult> {
  const email = normaliseEmail(input.email);
  const at = now();
  const found = db().select().from(users).where(eq(users.email, email)).get() ?? null;
  // An account that may not log in here looks exactly like no account: same answers, same timing.
  const user = found && (policy.eligible?.(found) ?? true) ? found : null;
  const record = (outcome: "success" | "failure" | "locked" | "blocked") =>
    recordLoginEvent({ kind: policy.kind, email, userId: user?.id ?? null, outcome, request });
  const locked = (lockedUntil: Date): LoginResult => ({
    ok: false,
    reason: "locked",
    status: 423,
    message: lockedMessage(lockedUntil),
    lockedUntil,
  });

  const perIp = hitOriginLimit(request, `login:${policy.kind}`, policy.perIp.limit, policy.perIp.windowMs);
  if (!perIp.allowed) {
    record("blocked");
    return {
      ok: false,
      reason: "blocked",
      status: 429,
      message: LOGIN_MESSAGES.blocked,
      retryAfterSeconds: perIp.retryAfterSeconds,
    };
  }

  const { counter, run } = await attemptRun(request, email, { found, user }, policy, at);
  const shownLock = runLockedUntil(run, policy, at);
  if (shownLock) {
    record("locked");
    return locked(shownLock);
  }
  // Locked by the account's own policy though not by this login's: refused like a wrong password.
  const own = found ? ownPolicy(found, policy) : null;
  const silentLock = found && own ? runLockedUntil(run, own, at) : null;

  const caller = passwordCheckCaller(request);
  const passwordOk = await unlessHashingBusy(async () =>
    verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()), caller),
  );
  if (typeof passwordOk !== "boolean") {
    // Too many passwords waiting to be checked: refused before the check, so nothing is counted.
    record("blocked");
    return { ...passwordOk, reason: "blocked" };
  }
  if (user && passwordOk && !silentLock) {
    // Locked by wrong second-factor codes: only someone with the password gets this far.
    if (user.lockedUntil && user.lockedUntil > at) {
      record("locked");
      return locked(user.lockedUntil);
    }
    if (counter) endPasswordRun(counter);
    db()
      .update(users)
      .set({
        lockedUntil: null,
        // A right password does not forgive wrong second-factor codes (else every login would
        // bring 5 new guesses); only a lock that has run out, or a right code, does.
        ...(user.lockedUntil ? { secondFactorFailures: 0 } : {}),
      })
      .where(eq(users.id, user.id))
      .run();
    record("success");
    return {
      ok: true,
      user: { id: user.id, email: user.email, isAdmin: user.isAdmin },
      requiresSecondFactor: user.isAdmin || Boolean(user.totpSecretEncrypted),
      deviceCookie: await deviceCookieAfterLogin(request, user.id),
    };
  }

  const after =
    counter && own
      ? countPasswordFailure(counter, own, at)
      : { failures: run.failures + 1, lastFailureAt: at };
  record("failure");
  const lockedNow = runLockedUntil(after, policy, at);
  if (lockedNow) return locked(lockedNow);
  const remainingAttempts = policy.maxFailures - after.failures;
  return {
    ok: false,
    reason: "invalid",
    status: 401,
    message: LOGIN_MESSAGES.invalid,
    remainingAttempts,
    warning: remainingAttemptsWarning(remainingAttempts, policy),
  };
}

/**
 * The Set-Cookie headers after the password step: the session's (first: tests read it so) and,
 * after a right password, the device cookie that makes this browser the account's device.
 */
export async function loginCookies(session: ShopSession, result: LoginResult): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  if (result.ok) headers.append("Set-Cookie", result.deviceCookie);
  return headers;
}

/**
 * The customer login (/login), after the password step (checkPassword). Admins and users with
 * an authenticator app are not logged in here: the second-factor page takes over with
 * `pendingLogin`.
 */
export function logInCustomer(
  session: ShopSession,
  values: LoginValues,
  result: LoginResult,
): { ok: true; redirectTo: string; secondFactor: boolean } | Exclude<LoginResult, { ok: true }> {
  if (!result.ok) return result;
  if (result.requiresSecondFactor) {
    logIn(session, result.user, {
      as: "pending-second-factor",
      redirectTo: safeRedirect(values.redirectTo, result.user.isAdmin ? "/admin" : "/"),
    });
    return { ok: true, redirectTo: "/admin-2fa-verify", secondFactor: true };
  }
  logIn(session, result.user);
  return { ok: true, redirectTo: safeRedirect(values.redirectTo, "/"), secondFactor: false };
}
