import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { sellerInfo } from "../core/seller.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { hashPassword, unlessHashingBusy, type HashingBusy } from "../auth/password.server";
import { endLogins } from "../auth/login/session-login.server";
import { LIMIT_MESSAGES } from "../auth/codes/limit-messages.server";
import { requestMailedLink, type MailedLinkRequest } from "../auth/codes/mailed-link-request.server";
import { queueMail, sendThroughOutbox } from "../mail/outbox.server";
import { passwordChangedMail } from "../mail/templates/password-changed.server";
import { adminPasswordResetRefusedMail, passwordResetMail } from "../mail/templates/password-reset.server";
import { checkMailLink, issueMailLink, takeMailLink, type MailLinkProblem } from "./mail-links.server";
import { confirmAddress } from "./confirmed-address.server";

/**
 * Forgotten password (パスワードをお忘れの方): a one-time link mailed to the account's address
 * (30 minutes, see mail-links.server.ts) opens a page that sets a new password. Asking answers
 * the same whether or not the address has an account, and the mail goes out after the answer,
 * so neither the text, the status nor the time tells. Setting the password ends every login
 * of the account (whoever knew the old password is out) and does not log in: the person logs
 * in with the new password, which also proves they can.
 *
 * The link proves the address, so it also confirms the address of an account the checkout's
 * auto-login made: its earlier orders join it (purchase-history.server.ts). If someone else
 * made that account with a guessed checkout code, the real owner takes it over here.
 *
 * Admin accounts are not reset by mail: with the e-mail second factor, the mailbox alone
 * would then open the back office. Their owner gets a mail that says so instead.
 */

export const PASSWORD_RESET_MESSAGES = {
  requested:
    "ご入力のメールアドレスにアカウントがある場合は、パスワード再設定用のリンクをお送りしました。メールをご確認のうえ、30分以内にリンクを開いてください。",
  tooMany: LIMIT_MESSAGES.tooManyRequests,
  done: "パスワードを再設定しました",
  doneDescription: "新しいパスワードでログインしてください。すべての端末でログアウトされています。",
  unknown: "このリンクは無効です。メールのリンクを最後まで正しく開いたかご確認ください。",
  expired: "このリンクは有効期限（30分）が切れています。",
  used: "このリンクはすでに使用されています。",
} as const;

/**
 * Asks for a reset link, under the limits every mailed link has (mailed-link-request.server.ts).
 * An admin's address is mailed a notice that says it is not reset by mail.
 */
export function requestPasswordReset(request: Request, rawEmail: string): MailedLinkRequest {
  return requestMailedLink(request, {
    kind: "password-reset",
    email: rawEmail,
    what: "password reset link mail",
    queue: (email) => {
      const user = db()
        .select({ id: users.id, name: users.name, isAdmin: users.isAdmin })
        .from(users)
        .where(eq(users.email, email))
        .get();
      if (!user) return null;
      return db().transaction((tx) => {
        if (user.isAdmin)
          return queueMail({ to: email, mail: adminPasswordResetRefusedMail({ name: user.name }) }, tx);
        const { token, expiresAt } = issueMailLink("password-reset", user.id, tx);
        return queueMail(
          {
            to: email,
            topic: `password-reset:${user.id}`,
            expiresAt,
            mail: passwordResetMail({
              name: user.name,
              link: `${env().SITE_URL}/reset-password?token=${token}`,
              expiresAt,
            }),
          },
          tx,
        );
      });
    },
  });
}

export type ResetLinkState = { ok: true } | { ok: false; problem: MailLinkProblem; message: string };

function problemMessage(problem: MailLinkProblem): string {
  return PASSWORD_RESET_MESSAGES[problem];
}

/** Whether the link can still set a password (the page shows the form, or says why not). */
export function checkResetLink(token: unknown): ResetLinkState {
  const checked = checkMailLink("password-reset", token);
  return checked.ok
    ? { ok: true }
    : { ok: false, problem: checked.problem, message: problemMessage(checked.problem) };
}

/**
 * Sets the new password through the link, once: stores its hash, clears the login lockout,
 * uses up the link, confirms the address, ends every login of the account and mails the
 * "password changed" notice.
 */
export async function resetPassword(
  token: unknown,
  newPassword: string,
): Promise<ResetLinkState | HashingBusy> {
  const before = checkResetLink(token);
  if (!before.ok) return before;
  // Hashed before the transaction: scrypt takes ~0.3 s and must not hold the write lock.
  const passwordHash = await unlessHashingBusy(() => hashPassword(newPassword));
  if (typeof passwordHash !== "string") return passwordHash;
  const result = db().transaction(
    (tx) => {
      const used = takeMailLink("password-reset", token, tx);
      if (!used.ok) return used;
      const user = tx
        .update(users)
        .set({ passwordHash, failedLoginCount: 0, lockedUntil: null })
        .where(eq(users.id, used.userId))
        .returning({ id: users.id, email: users.email, name: users.name })
        .get();
      if (!user) return { ok: false as const, problem: "unknown" as const };
      confirmAddress(user.id, tx);
      return { ok: true as const, user };
    },
    { behavior: "immediate" },
  );
  if (!result.ok) return { ok: false, problem: result.problem, message: problemMessage(result.problem) };
  endLogins(result.user.id);
  sendThroughOutbox({
    to: result.user.email,
    mail: passwordChangedMail({ name: result.user.name, changedAt: now(), supportEmail: sellerInfo().email }),
  }).catch((error: unknown) => console.error("[password-reset] notice mail failed", error));
  return { ok: true };
}
