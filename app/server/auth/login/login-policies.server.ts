import { sql } from "drizzle-orm";
import { formatDateTime } from "~/lib/rules/format";
import { users } from "../../db/schema";
import type { LoginKind } from "./login-events.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * The two logins' lockout policies and what they say: the customer login's (/login) and the
 * admin login's (/admin-login). An account is locked by its own kind's policy wherever it is
 * tried (login.server.ts), so both live here together.
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
  perIp: { limit: 30, windowMs: 15 * MINUTE_MS },
};

/** Admins: 5 failures lock for 15 minutes; the warning starts at 3 left. Customers' accounts are invisible here. */
export const ADMIN_LOGIN_POLICY: LoginPolicy = {
  kind: "admin",
  maxFailures: 5,
  lockMinutes: 15,
  warnAtRemaining: 3,
  finalWarningAtRemaining: 1,
  perIp: { limit: 20, windowMs: 15 * MINUTE_MS },
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

/**
 * The policy an account is locked by wherever it is tried: the login's own when the
 * account is of that login's kind, else its kind's standard one.
 */
export function ownPolicy(user: { isAdmin: boolean }, policy: LoginPolicy): LoginPolicy {
  const kind = user.isAdmin ? "admin" : "customer";
  if (policy.kind === kind) return policy;
  return kind === "admin" ? ADMIN_LOGIN_POLICY : CUSTOMER_LOGIN_POLICY;
}

/**
 * SQL for the security dashboard: until when (ms) an account is locked for its untrusted
 * clients (its run of wrong passwords at its own policy's limit), else null. That lock lives in
 * the run, not in lockedUntil (see countAccountFailure), so the dashboard reads it from here.
 */
export function untrustedLockUntilSql(at: Date) {
  const policyOf = (admin: boolean) => (admin ? ADMIN_LOGIN_POLICY : CUSTOMER_LOGIN_POLICY);
  const lockMs = (admin: boolean) => policyOf(admin).lockMinutes * MINUTE_MS;
  return sql<number | null>`case
    when ${users.isAdmin} = 1 and ${users.failedLoginCount} >= ${policyOf(true).maxFailures}
      and ${users.lastFailedLoginAt} > ${at.getTime() - lockMs(true)}
      then ${users.lastFailedLoginAt} + ${lockMs(true)}
    when ${users.isAdmin} = 0 and ${users.failedLoginCount} >= ${policyOf(false).maxFailures}
      and ${users.lastFailedLoginAt} > ${at.getTime() - lockMs(false)}
      then ${users.lastFailedLoginAt} + ${lockMs(false)}
  end`;
}
