import { eq } from "drizzle-orm";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { CODE_MESSAGES, CODE_TTL_MS, verifyCode } from "../auth/codes/codes.server";
import { sendCodeMail, type SendCodeResult } from "../auth/codes/code-mail.server";
import { LIMIT_MESSAGES } from "../auth/codes/limit-messages.server";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { passwordChangeCodeMail } from "../mail/templates/password-change-code.server";
import { passwordChangedMail } from "../mail/templates/password-changed.server";
import { sendThroughOutbox } from "../mail/outbox.server";
import { hashPassword, unlessHashingBusy, type HashingBusy } from "../auth/password.server";
import { originLimitKey } from "../http/rate-limit.server";
import { sellerInfo } from "../core/seller.server";
import type { ShopSession } from "../http/session.server";
import type { CurrentUser } from "../auth/users.server";
import {
  endPasswordChange,
  keepLoginAfterPasswordChange,
  notePasswordChangeVerified,
  passwordChangeVerifiedAt,
} from "../auth/login/session-login.server";

/**
 * Password change in three steps: a code mailed to the account's address, the code
 * entered, then the new password. The new password ends every other session of the
 * user and keeps this one logged in under a new token.
 */

export const PASSWORD_CHANGE_MESSAGES = {
  sent: "認証コードを送信しました。メールをご確認ください。",
  sendFailed: "認証コードの送信に失敗しました",
  wrongCode: "認証コードが正しくありません",
  notVerified: "認証の有効期限が切れました。もう一度認証コードを取得してください。",
  tooMany: LIMIT_MESSAGES.tooManySends,
  changed: "パスワードを変更しました",
} as const;

export type StepFailure = { ok: false; status: 400 | 409 | 429; message: string };

/** Mails a code to the account's own address (never one the browser names). */
export function sendPasswordChangeCode(request: Request, user: CurrentUser): Promise<SendCodeResult> {
  return sendCodeMail({
    purpose: "password-change",
    subject: String(user.id),
    to: user.email,
    topic: `password-change:${user.id}`,
    limits: [
      {
        key: originLimitKey(request, "password-change-code"),
        limit: 20,
        windowMs: HOUR_MS,
        message: PASSWORD_CHANGE_MESSAGES.tooMany,
      },
    ],
    mail: ({ code, expiresAt }) => passwordChangeCodeMail({ name: user.name, code, expiresAt }),
    messages: {
      tooSoon: (seconds) =>
        `認証コードは送信済みです。届いたコードを入力してください（再送信は${seconds}秒後から可能です）。`,
      notSent: PASSWORD_CHANGE_MESSAGES.sendFailed,
    },
    log: "[password-change] code mail failed",
  });
}

/** The right code lets this session set a new password for the next 10 minutes. */
export function verifyPasswordChangeCode(
  session: ShopSession,
  user: CurrentUser,
  code: string,
): { ok: true } | StepFailure {
  const result = verifyCode("password-change", String(user.id), code);
  if (!result.ok) {
    if (result.reason === "wrong")
      return {
        ok: false,
        status: 400,
        message: `${PASSWORD_CHANGE_MESSAGES.wrongCode}（あと${result.remainingAttempts}回）`,
      };
    return {
      ok: false,
      status: result.reason === "tooManyAttempts" ? 429 : 400,
      message: result.reason === "expired" ? CODE_MESSAGES.expired : result.message,
    };
  }
  notePasswordChangeVerified(session, user.id);
  return { ok: true };
}

export function isPasswordChangeVerified(session: ShopSession, user: CurrentUser): boolean {
  const verifiedAt = passwordChangeVerifiedAt(session, user.id);
  return verifiedAt !== null && now().getTime() - verifiedAt < CODE_TTL_MS;
}

/** Sets the new password, ends the user's other sessions, and keeps this one logged in under a new token. */
export async function changePassword(
  session: ShopSession,
  user: CurrentUser,
  newPassword: string,
): Promise<{ ok: true } | StepFailure | HashingBusy> {
  // The gate before the hash: a code mailed to the account and entered in this session.
  if (!isPasswordChangeVerified(session, user))
    return { ok: false, status: 409, message: PASSWORD_CHANGE_MESSAGES.notVerified };
  const passwordHash = await unlessHashingBusy(() => hashPassword(newPassword));
  if (typeof passwordHash !== "string") return passwordHash;
  const updated = db()
    .update(users)
    .set({ passwordHash, failedLoginCount: 0, lockedUntil: null })
    .where(eq(users.id, user.id))
    .returning({ id: users.id })
    .get();
  if (!updated) return { ok: false, status: 409, message: PASSWORD_CHANGE_MESSAGES.notVerified };
  keepLoginAfterPasswordChange(user.id, session);
  endPasswordChange(session);
  const changedAt = now();
  sendThroughOutbox({
    to: user.email,
    mail: passwordChangedMail({ name: user.name, changedAt, supportEmail: sellerInfo().email }),
  }).catch((error: unknown) => console.error("[password-change] notice mail failed", error));
  return { ok: true };
}
