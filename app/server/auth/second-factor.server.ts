import { eq } from "drizzle-orm";
import { CODE_TTL_MS, lastIssuedAt, verifyCode } from "./codes.server";
import { sendCodeMail, type SendCodeResult } from "./code-mail.server";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { logIn } from "./session-login.server";
import { loginCodeMail } from "../mail/templates/login-code.server";
import { hitRateLimit } from "../http/rate-limit.server";
import { open } from "../core/secret-box.server";
import type { ShopSession } from "../http/session.server";
import { checkTotp } from "./totp.server";

/**
 * The step between a right password and a logged-in session, for admins (and any user
 * with an authenticator app). What is held between the steps lives in the server-signed
 * session, never in the browser's storage. The step lasts 10 minutes.
 */
export const SECOND_FACTOR_TTL_MS = CODE_TTL_MS;

type PendingUser = typeof users.$inferSelect;

function pendingUser(session: ShopSession): PendingUser | null {
  const pending = session.get("pendingLogin");
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
    };

export function secondFactorState(session: ShopSession): SecondFactorState {
  const pending = session.get("pendingLogin");
  const user = pendingUser(session);
  if (!pending || !user) return { status: "none" };
  const expiresAt = new Date(pending.at + SECOND_FACTOR_TTL_MS);
  if (expiresAt <= now()) return { status: "expired" };
  const mode = user.totpSecretEncrypted ? "totp" : "email";
  return {
    status: "pending",
    mode,
    email: user.email,
    expiresAt,
    redirectTo: pending.redirectTo,
    codeSent: mode === "email",
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

/** A login handed over from /login has no code yet: send it on first view of the code page. */
export async function ensureLoginCodeSent(session: ShopSession): Promise<void> {
  const pending = session.get("pendingLogin");
  const user = pendingUser(session);
  if (!pending || !user || user.totpSecretEncrypted) return;
  const issued = lastIssuedAt("admin-2fa", String(user.id));
  if (!issued || issued.getTime() < pending.at) await sendLoginCode(user, { force: true });
}

/** Resend resets the 600-second countdown. */
export async function resendSecondFactor(session: ShopSession): Promise<{ ok: boolean; message: string }> {
  const pending = session.get("pendingLogin");
  const user = pendingUser(session);
  if (!pending || !user || user.totpSecretEncrypted) return { ok: false, message: "再送信に失敗しました" };
  const sent = await sendLoginCode(user, { force: false });
  if (!sent.ok) return { ok: false, message: sent.message };
  session.set("pendingLogin", { ...pending, at: now().getTime() });
  return { ok: true, message: "認証コードを再送信しました" };
}

export type SecondFactorResult =
  { ok: true; user: PendingUser; redirectTo: string } | { ok: false; message: string; expired?: boolean };

/** Checks the code; on success the session becomes a logged-in (and, for admins, admin) session. */
export function completeSecondFactor(session: ShopSession, code: string): SecondFactorResult {
  const state = secondFactorState(session);
  if (state.status === "expired")
    return {
      ok: false,
      expired: true,
      message: "認証コードの有効期限が切れました。もう一度ログインしてください。",
    };
  const user = pendingUser(session);
  if (state.status !== "pending" || !user)
    return { ok: false, expired: true, message: "認証に失敗しました。もう一度ログインしてください。" };

  if (state.mode === "totp") {
    // Five tries per login step: six digits are too few to allow guessing.
    if (!hitRateLimit(`totp:${user.id}`, 5, SECOND_FACTOR_TTL_MS).allowed) {
      return {
        ok: false,
        expired: true,
        message: "試行回数の上限に達しました。しばらくしてから再度ログインしてください。",
      };
    }
    const secret = user.totpSecretEncrypted ? open(user.totpSecretEncrypted) : null;
    if (!secret || !checkTotp(code, secret)) return { ok: false, message: "認証コードが正しくありません" };
  } else {
    const result = verifyCode("admin-2fa", String(user.id), code);
    if (!result.ok) return { ok: false, message: result.message, expired: result.reason !== "wrong" };
  }

  logIn(session, user, { as: "user", admin: user.isAdmin });
  return { ok: true, user, redirectTo: state.redirectTo };
}
