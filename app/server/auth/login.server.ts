import { eq, sql } from "drizzle-orm";
import type { LoginValues } from "~/lib/schemas/account-schemas";
import { formatDateTime } from "~/lib/rules/format";
import { safeRedirect } from "~/lib/rules/safe-redirect";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { recentFailureRun, recordLoginEvent, type LoginKind } from "./login-events.server";
import {
  clearDeviceFailureRun,
  countDeviceFailure,
  deviceCookieAfterLogin,
  deviceFailureRun,
  trustedDevice,
} from "./device-cookie.server";
import { decoyHash, unlessHashingBusy, verifyPassword } from "./password.server";
import { hitOriginLimit, originLimitKey } from "../http/rate-limit.server";
import { commitSession, type ShopSession } from "../http/session.server";
import { logIn } from "./session-login.server";

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
 */

export type LoginPolicy = {
  kind: LoginKind;
  /** Consecutive failures that lock the account. */
  maxFailures: number;
  lockMinutes: number;
  /** Warn about the attempts left when this many or fewer remain. */
  warnAtRemaining: number;
  /** Add that the account is about to be locked when this many or fewer remain. */
  finalWarningAtRemaining: number;
  /** From this many failures, before the attempts left are counted down, a general word of caution (the storefront's spec). */
  cautionAfterFailures?: number;
  /** Attempts one client address may make, whatever the e-mails, per window. */
  perIp: { limit: number; windowMs: number };
  /** Who may log in here (the admin login: admins only). Anyone else is treated as an unknown address. */
  eligible?: (user: { isAdmin: boolean }) => boolean;
};

export const CUSTOMER_LOGIN_POLICY: LoginPolicy = {
  kind: "customer",
  maxFailures: 10,
  lockMinutes: 15,
  warnAtRemaining: 5,
  finalWarningAtRemaining: 2,
  cautionAfterFailures: 3,
  perIp: { limit: 30, windowMs: 15 * 60 * 1000 },
};

/** Admins: 5 failures lock for 15 minutes; the warning starts at 3 left. Customers' accounts are invisible here. */
export const ADMIN_LOGIN_POLICY: LoginPolicy = {
  kind: "admin",
  maxFailures: 5,
  lockMinutes: 15,
  warnAtRemaining: 3,
  finalWarningAtRemaining: 1,
  perIp: { limit: 20, windowMs: 15 * 60 * 1000 },
  eligible: (user) => user.isAdmin,
};

export const LOGIN_MESSAGES = {
  invalid: "メールアドレスまたはパスワードが正しくありません",
  blocked: "ログインの試行回数が多すぎます。しばらく時間をおいてから再度お試しください。",
  caution:
    "ログインに複数回失敗しています。メールアドレスとパスワードをご確認ください。パスワードをお忘れの場合は「パスワードをお忘れの方」から再設定できます。",
} as const;

export function lockedMessage(lockedUntil: Date): string {
  return `ログインに続けて失敗したため、アカウントを一時的にロックしました。${formatDateTime(lockedUntil)} 以降に再度お試しください。`;
}

/**
 * The warning under a failed login: the attempts left once few remain, before that a general
 * caution after a few failures (where the policy has one), or null after the first ones.
 */
export function remainingAttemptsWarning(remaining: number, policy: LoginPolicy): string | null {
  if (remaining < 1) return null;
  if (remaining > policy.warnAtRemaining) {
    const failures = policy.maxFailures - remaining;
    return policy.cautionAfterFailures !== undefined && failures >= policy.cautionAfterFailures
      ? LOGIN_MESSAGES.caution
      : null;
  }
  const base = `あと${remaining}回失敗すると、アカウントが${policy.lockMinutes}分間ロックされます。`;
  if (remaining > policy.finalWarningAtRemaining) return base;
  return remaining === 1
    ? `${base}次に失敗するとロックされますので、パスワードをよくご確認ください。`
    : `${base}まもなくロックされますので、パスワードをよくご確認ください。`;
}

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

type LockState = { failures: number; lockedUntil: Date | null };

/** A run of failed passwords: how many, and the latest. */
type FailureRun = { failures: number; lastFailureAt: Date | null };

/** The run as it stands at `at`: after 15 quiet minutes it is over. */
function currentRun(run: FailureRun, lockMinutes: number, at: Date): FailureRun {
  if (!run.lastFailureAt || at.getTime() >= run.lastFailureAt.getTime() + lockMinutes * 60_000)
    return { failures: 0, lastFailureAt: null };
  return run;
}

/** Until when a run locks under a policy, or null: at maxFailures, for lockMinutes after the latest failure. */
function runLockedUntil(run: FailureRun, policy: LoginPolicy, at: Date): Date | null {
  if (!run.lastFailureAt || run.failures < policy.maxFailures) return null;
  const until = new Date(run.lastFailureAt.getTime() + policy.lockMinutes * 60_000);
  return until > at ? until : null;
}

/**
 * The policy an account is locked by wherever it is tried: the login's own when the
 * account is of that login's kind, else its kind's standard one.
 */
function ownPolicy(user: { isAdmin: boolean }, policy: LoginPolicy): LoginPolicy {
  const kind = user.isAdmin ? "admin" : "customer";
  if (policy.kind === kind) return policy;
  return kind === "admin" ? ADMIN_LOGIN_POLICY : CUSTOMER_LOGIN_POLICY;
}

/**
 * Counts an untrusted client's failure on the account (atomically). The run it makes is the
 * lock of the untrusted clients (read at the login with runLockedUntil); it is not written to
 * lockedUntil, which is the lock every client meets (wrong second-factor codes: only someone
 * with the password gets to enter one), so the account's own devices and its second factor
 * carry on while strangers are locked out.
 */
function countAccountFailure(userId: number, own: LoginPolicy, at: Date): FailureRun {
  return db().transaction(
    (tx) => {
      const row = tx
        .select({ failedLoginCount: users.failedLoginCount, lastFailedLoginAt: users.lastFailedLoginAt })
        .from(users)
        .where(eq(users.id, userId))
        .get();
      const run = currentRun(
        { failures: row?.failedLoginCount ?? 0, lastFailureAt: row?.lastFailedLoginAt ?? null },
        own.lockMinutes,
        at,
      );
      const after = { failures: run.failures + 1, lastFailureAt: at };
      tx.update(users)
        .set({ failedLoginCount: after.failures, lastFailedLoginAt: at })
        .where(eq(users.id, userId))
        .run();
      return after;
    },
    { behavior: "immediate" },
  );
}

/**
 * SQL for the security dashboard: until when (ms) an account is locked for its untrusted
 * clients (its run of wrong passwords at its own policy's limit), else null. That lock lives in
 * the run, not in lockedUntil (see countAccountFailure), so the dashboard reads it from here.
 */
export function untrustedLockUntilSql(at: Date) {
  const policyOf = (admin: boolean) => (admin ? ADMIN_LOGIN_POLICY : CUSTOMER_LOGIN_POLICY);
  const lockMs = (admin: boolean) => policyOf(admin).lockMinutes * 60_000;
  return sql<number | null>`case
    when ${users.isAdmin} = 1 and ${users.failedLoginCount} >= ${policyOf(true).maxFailures}
      and ${users.lastFailedLoginAt} > ${at.getTime() - lockMs(true)}
      then ${users.lastFailedLoginAt} + ${lockMs(true)}
    when ${users.isAdmin} = 0 and ${users.failedLoginCount} >= ${policyOf(false).maxFailures}
      and ${users.lastFailedLoginAt} > ${at.getTime() - lockMs(false)}
      then ${users.lastFailedLoginAt} + ${lockMs(false)}
  end`;
}

/**
 * The second factor's limit: wrong codes count per account, across codes, resends and
 * logins, and the 5th locks the account (the password step included) for 15 minutes.
 */
export const SECOND_FACTOR_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

/**
 * Until when the account is locked for every client, its own devices included (by wrong
 * second-factor codes), or null. Wrong passwords lock per device or for untrusted clients:
 * see passwordRun.
 */
export function accountLockedUntil(userId: number, at: Date = now()): Date | null {
  const row = db().select({ lockedUntil: users.lockedUntil }).from(users).where(eq(users.id, userId)).get();
  return row?.lockedUntil && row.lockedUntil > at ? row.lockedUntil : null;
}

/**
 * Counts a wrong second-factor code on the account (atomically) and locks it at the limit.
 * An account already locked is not counted further: the caller answers with the lock.
 */
export function countSecondFactorFailure(userId: number, at: Date): LockState {
  return db().transaction(
    (tx) => {
      const row = tx
        .select({ secondFactorFailures: users.secondFactorFailures, lockedUntil: users.lockedUntil })
        .from(users)
        .where(eq(users.id, userId))
        .get();
      if (!row) return { failures: 0, lockedUntil: null };
      if (row.lockedUntil && row.lockedUntil > at)
        return { failures: row.secondFactorFailures, lockedUntil: row.lockedUntil };
      // A lock that has run out starts a fresh count, for codes as for passwords.
      const ranOut = row.lockedUntil !== null;
      const failures = (ranOut ? 0 : row.secondFactorFailures) + 1;
      const lockedUntil =
        failures >= SECOND_FACTOR_LOCK.maxFailures
          ? new Date(at.getTime() + SECOND_FACTOR_LOCK.lockMinutes * 60_000)
          : null;
      tx.update(users)
        .set({
          secondFactorFailures: failures,
          lockedUntil,
          ...(ranOut ? { failedLoginCount: 0 } : {}),
        })
        .where(eq(users.id, userId))
        .run();
      return { failures, lockedUntil };
    },
    { behavior: "immediate" },
  );
}

/** A completed second factor clears every count, like a successful login. */
export function clearAccountFailures(userId: number): void {
  db()
    .update(users)
    .set({ failedLoginCount: 0, secondFactorFailures: 0, lockedUntil: null })
    .where(eq(users.id, userId))
    .run();
}

/**
 * Whose turn a password check waits in (password.server.ts): the client's address, an IPv6 /64,
 * so a flood from one address queues behind itself only. Requests that did not come through
 * the server's edge (no address) share one turn.
 */
export function passwordCheckCaller(request: Request): string {
  return originLimitKey(request, "password-check") ?? "password-check:unknown";
}

/** Where an attempt's wrong passwords count: a trusted device's own run, or the untrusted clients' run on the account. */
type PasswordCounter = { device: string } | { device: null; userId: number };

/** The run an attempt on an account counts in, as it stands at `at` (see the comment at the top). */
async function passwordRun(
  request: Request,
  account: { id: number; failedLoginCount: number; lastFailedLoginAt: Date | null },
  lockMinutes: number,
  at: Date,
): Promise<{ counter: PasswordCounter; run: FailureRun }> {
  const device = await trustedDevice(request, account.id);
  const run = device
    ? deviceFailureRun(device)
    : { failures: account.failedLoginCount, lastFailureAt: account.lastFailedLoginAt };
  return {
    counter: device ? { device } : { device: null, userId: account.id },
    run: currentRun(run, lockMinutes, at),
  };
}

/** Counts a wrong password where the attempt's counter says. */
function countPasswordFailure(counter: PasswordCounter, own: LoginPolicy, at: Date): FailureRun {
  return counter.device !== null
    ? countDeviceFailure(counter.device, at, own.lockMinutes * 60_000)
    : countAccountFailure(counter.userId, own, at);
}

/** A right password ends the run it was tried in (a device's, or the untrusted clients'). */
function endPasswordRun(counter: PasswordCounter): void {
  if (counter.device !== null) clearDeviceFailureRun(counter.device);
  else
    db()
      .update(users)
      .set({ failedLoginCount: 0, lastFailedLoginAt: null })
      .where(eq(users.id, counter.userId))
      .run();
}

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
    run: currentRun(recentFailureRun(email, policy.lockMinutes * 60_000), policy.lockMinutes, at),
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
