import { and, eq, isNull, lt, or } from "drizzle-orm";
import { formatDateTime } from "~/lib/rules/format";
import { CODE_MESSAGES, CODE_TTL_MS, lastIssuedAt, verifyCode } from "../codes/codes.server";
import { sendCodeMail, type SendCodeResult } from "../codes/code-mail.server";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import { logIn, logOut, pendingLoginOf, restartPendingLogin } from "../login/session-login.server";
import { recordSecondFactorOutcome } from "../login-audit.server";
import { loginCodeMail } from "../../mail/templates/login-code.server";
import {
  accountLockedUntil,
  clearAccountFailures,
  countSecondFactorFailure,
  SECOND_FACTOR_LOCK,
} from "./account-lock.server";
import { open } from "../../core/secret-box.server";
import type { ShopSession } from "../../http/session.server";
import { totpStep } from "./totp.server";
import type { FactorCheck, PendingUser, SecondFactorResult } from "./second-factor-result.server";

/**
 * The step between a right password and a logged-in session, for admins (and any user
 * with an authenticator app). What is held between the steps lives in the server-signed
 * session, never in the browser's storage. The step lasts 10 minutes.
 */
export const SECOND_FACTOR_TTL_MS = CODE_TTL_MS;

function pendingUser(session: ShopSession): PendingUser | null {
  const pending = pendingLoginOf(session);
  if (!pending) return null;
  return db().select().from(users).where(eq(users.id, pending.userId)).get() ?? null;
}

export type SecondFactorState =
  | { status: "none" }
  | { status: "expired" }
  | {
      status: "pending";
      mode: "totp" | "email";
      email: string;
      expiresAt: Date;
      redirectTo: string;
      codeSent: boolean;
      /** The account is locked (too many wrong codes or passwords): no code is sent or checked. */
      lockedUntil: Date | null;
    };

export function secondFactorState(session: ShopSession): SecondFactorState {
  const pending = pendingLoginOf(session);
  const user = pendingUser(session);
  if (!pending || !user) return { status: "none" };
  const expiresAt = new Date(pending.at + SECOND_FACTOR_TTL_MS);
  if (expiresAt <= now()) return { status: "expired" };
  const mode = user.totpSecretEncrypted ? "totp" : "email";
  const lockedUntil = accountLockedUntil(user.id);
  return {
    status: "pending",
    mode,
    email: user.email,
    expiresAt,
    redirectTo: pending.redirectTo,
    codeSent: mode === "email" && !lockedUntil,
    lockedUntil,
  };
}

function sendLoginCode(user: PendingUser, options: { force: boolean }): Promise<SendCodeResult> {
  return sendCodeMail({
    purpose: "admin-2fa",
    subject: String(user.id),
    to: user.email,
    topic: `admin-2fa:${user.id}`,
    force: options.force,
    mail: ({ code, expiresAt }) => loginCodeMail({ code, expiresAt }),
    messages: {
      tooSoon: (seconds) => `再送信は${seconds}秒後にお試しください`,
      notSent: "再送信に失敗しました",
    },
    log: "[second-factor] code mail failed",
  });
}

/**
 * A login handed over from /login has no code yet: send it on first view of the code page.
 * Answers what to tell the admin when the address has had its login codes for now (only
 * someone with the right password can ask for these, and they count apart from the codes
 * anyone can ask for, so a stranger cannot fill this count).
 */
export async function ensureLoginCodeSent(session: ShopSession): Promise<string | null> {
  const pending = pendingLoginOf(session);
  const user = pendingUser(session);
  if (!pending || !user || user.totpSecretEncrypted || accountLockedUntil(user.id)) return null;
  const issued = lastIssuedAt("admin-2fa", String(user.id));
  if (issued && issued.getTime() >= pending.at) return null;
  const sent = await sendLoginCode(user, { force: true });
  return !sent.ok && sent.addressCap ? sent.message : null;
}

export type ResendResult =
  | { ok: true; message: string }
  | {
      ok: false;
      /** 409: no login waits for a mailed code here (none, expired, or one with an authenticator app). */
      status: 409 | 423 | 429 | 503;
      message: string;
      lockedUntil?: Date;
      retryAfterSeconds?: number;
    };

/** What the code step asks for, in the words of the code page (/admin-2fa-verify). */
export function secondFactorPrompt(session: ShopSession): string {
  const state = secondFactorState(session);
  if (state.status !== "pending") return "もう一度ログインしてください。";
  return state.mode === "totp"
    ? "認証アプリに表示されている6桁のコードを入力してください。"
    : `${state.email} に送信した6桁の認証コードを入力してください。`;
}

/** Resend resets the 600-second countdown. The code goes to the pending login's own address only. */
export async function resendSecondFactor(session: ShopSession): Promise<ResendResult> {
  const pending = pendingLoginOf(session);
  const user = pendingUser(session);
  // An expired step is not brought back by a resend: its login starts again from the password.
  if (!pending || !user || user.totpSecretEncrypted || secondFactorState(session).status !== "pending")
    return { ok: false, status: 409, message: "再送信に失敗しました" };
  const lockedUntil = accountLockedUntil(user.id);
  if (lockedUntil)
    return { ok: false, status: 423, message: secondFactorLockedMessage(lockedUntil), lockedUntil };
  const sent = await sendLoginCode(user, { force: false });
  if (!sent.ok)
    return {
      ok: false,
      status: sent.status,
      message: sent.message,
      retryAfterSeconds: sent.retryAfterSeconds,
    };
  restartPendingLogin(session, pending);
  return { ok: true, message: "認証コードを再送信しました" };
}

/**
 * Whether `email` names the login waiting on this session ("same"), another address ("other"),
 * or nothing waits ("none": none, or expired). The JSON calls name the address (the spec's
 * payload); it never picks the account, it only has to be the session's own.
 */
export function pendingLoginFor(session: ShopSession, email: string): "same" | "other" | "none" {
  const state = secondFactorState(session);
  if (state.status !== "pending") return "none";
  return state.email === email.trim().toLowerCase() ? "same" : "other";
}

export function secondFactorLockedMessage(lockedUntil: Date): string {
  return `認証コードの入力に続けて失敗したため、アカウントを一時的にロックしました。${formatDateTime(lockedUntil)} 以降に、もう一度ログインしてください。`;
}

/** Under a wrong code: the attempts left at 3 or fewer, and at 1 that the next failure locks. */
export function codeAttemptsWarning(remaining: number): string | null {
  if (remaining < 1 || remaining > 3) return null;
  const base = `残り試行回数: ${remaining}回`;
  return remaining === 1
    ? `${base}。次に失敗すると${SECOND_FACTOR_LOCK.lockMinutes}分間ロックされます`
    : base;
}

function lockedResult(lockedUntil: Date, counted: boolean): SecondFactorResult {
  return {
    ok: false,
    reason: "locked",
    message: secondFactorLockedMessage(lockedUntil),
    lockedUntil,
    counted,
  };
}

/** The authenticator code, each time step accepted once per account (a replayed code is wrong). */
function acceptTotp(user: PendingUser, code: string): boolean {
  const secret = user.totpSecretEncrypted ? open(user.totpSecretEncrypted) : null;
  const step = secret ? totpStep(code, secret) : null;
  if (step === null) return false;
  // One conditional write, so two requests racing with the same code cannot both win.
  const claimed = db()
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .run();
  return claimed.changes === 1;
}

/**
 * The account's current second factor: its authenticator's code when it has one (each time
 * step once), else the code mailed for `purpose` (the login's, or the authenticator change's).
 * Wrong codes count per account wherever they are entered, so neither a new login, a resent
 * code nor another screen brings new tries: the 5th locks the account.
 */
export function checkSecondFactor(
  user: PendingUser,
  code: string,
  purpose: "admin-2fa" | "authenticator-change",
  at: Date = now(),
): FactorCheck {
  const lockedUntil = accountLockedUntil(user.id, at);
  if (lockedUntil) return lockedResult(lockedUntil, false);

  let wrongMessage: string | null = null;
  if (user.totpSecretEncrypted) {
    if (!acceptTotp(user, code)) wrongMessage = "認証コードが正しくありません";
  } else {
    const result = verifyCode(purpose, String(user.id), code);
    if (!result.ok && result.reason === "expired")
      return { ok: false, reason: "expired", message: result.message };
    if (!result.ok) wrongMessage = CODE_MESSAGES.wrong;
  }
  if (wrongMessage === null) return { ok: true };
  const after = countSecondFactorFailure(user.id, at);
  if (after.lockedUntil) return lockedResult(after.lockedUntil, true);
  return {
    ok: false,
    reason: "wrong",
    message: wrongMessage,
    warning: codeAttemptsWarning(SECOND_FACTOR_LOCK.maxFailures - after.failures),
  };
}

/**
 * The code step as /admin-2fa-verify and POST /api/admin/verify-2fa run it: the code checked,
 * the attempt written to the login records like every other, and a step that has expired
 * ended, so its login starts again from the password.
 */
export function enterSecondFactorCode(
  request: Request,
  session: ShopSession,
  code: string,
): SecondFactorResult {
  const state = secondFactorState(session);
  const result = completeSecondFactor(session, code);
  recordSecondFactorOutcome(request, session, state.status === "pending" ? state.email : "", result);
  if (!result.ok && result.reason === "expired") logOut(session, "pending-second-factor");
  return result;
}

/** Checks the code; on success the session becomes a logged-in (and, for admins, admin) session. */
export function completeSecondFactor(session: ShopSession, code: string): SecondFactorResult {
  const state = secondFactorState(session);
  if (state.status === "expired")
    return {
      ok: false,
      reason: "expired",
      message: "認証コードの有効期限が切れました。もう一度ログインしてください。",
    };
  const user = pendingUser(session);
  if (state.status !== "pending" || !user)
    return { ok: false, reason: "expired", message: "認証に失敗しました。もう一度ログインしてください。" };

  const checked = checkSecondFactor(user, code, "admin-2fa");
  if (!checked.ok) return checked;
  clearAccountFailures(user.id);
  logIn(session, user, { as: "user", admin: user.isAdmin });
  return { ok: true, user, redirectTo: state.redirectTo };
}
