import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { formatDateTime } from "~/lib/rules/format";
import { HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../../core/clock.server";
import { open, seal } from "../../core/secret-box.server";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import { originLimitKey } from "../../http/rate-limit.server";
import type { ShopSession } from "../../http/session.server";
import { sendThroughOutbox } from "../../mail/outbox.server";
import {
  authenticatorChangedMail,
  type AuthenticatorChange,
} from "../../mail/templates/authenticator-changed.server";
import { loginCodeMail } from "../../mail/templates/login-code.server";
import { sendCodeMail, type SendCodeResult } from "../codes/code-mail.server";
import { LIMIT_MESSAGES } from "../codes/limit-messages.server";
import { recordLoginEvent } from "../login/login-events.server";
import { accountLockedUntil, clearAccountFailures } from "./account-lock.server";
import { recheckPassword } from "../password-recheck.server";
import { checkSecondFactor } from "./second-factor.server";
import { endLogins } from "../login/session-login.server";
import { newTotpSecret, totpQrCode, totpStep } from "./totp.server";
import type { CurrentUser } from "../users.server";

/**
 * Setting up, replacing and removing the authenticator app of an account's second factor.
 * A session alone is not enough for any of it: the account's password and its current second
 * factor (the current app's code, else a code by mail) are asked first, and wrong ones count
 * on the account as at the login. The secret being set up stays on the server, sealed, and
 * is shown only to the screen that started the setup (it holds the setup's token). A change
 * mails a notice to the account's address and ends the account's other logins.
 */

/** A setup not confirmed within 15 minutes has to be started again (with the password and a code). */
export const PENDING_SETUP_TTL_MS = 15 * MINUTE_MS;

export const AUTHENTICATOR_MESSAGES = {
  codeSent: "認証コードを送信しました。メールをご確認ください。",
  codeNotSent: "認証コードの送信に失敗しました",
  tooManyCodes: LIMIT_MESSAGES.tooManySends,
  useApp: "認証アプリに表示されている6桁のコードを入力してください",
  codeExpired: "認証コードが無効または期限切れです。「認証コードを送信」から新しいコードを取得してください。",
  setupExpired:
    "設定の有効期限が切れました。お手数ですが、パスワードと認証コードを入力して、最初からやり直してください。",
  wrongSetupCode: "認証コードが正しくありません。認証アプリの時刻設定もご確認ください。",
  notEnabled: "認証アプリは設定されていません",
} as const;

export function authenticatorLockedMessage(lockedUntil: Date): string {
  return `パスワードまたは認証コードの入力に続けて失敗したため、アカウントを一時的にロックしました。${formatDateTime(lockedUntil)} 以降に再度お試しください。`;
}

function accountRow(userId: number) {
  return db().select().from(users).where(eq(users.id, userId)).get() ?? null;
}

/** What the screen shows: whether an app is set up (its code is then the current factor), and any lock. */
export function authenticatorState(userId: number): { enabled: boolean; lockedUntil: Date | null } {
  return {
    enabled: Boolean(accountRow(userId)?.totpSecretEncrypted),
    lockedUntil: accountLockedUntil(userId),
  };
}

export function isAuthenticatorEnabled(userId: number): boolean {
  return authenticatorState(userId).enabled;
}

export type Refusal = {
  ok: false;
  status: 400 | 401 | 409 | 423 | 429 | 503;
  /** The field the message belongs beside (none: the form's own message). */
  field: "password" | "code" | null;
  message: string;
  warning?: string | null;
  lockedUntil?: Date;
};

function locked(lockedUntil: Date): Refusal {
  return {
    ok: false,
    status: 423,
    field: null,
    message: authenticatorLockedMessage(lockedUntil),
    lockedUntil,
  };
}

/** Mails the account's own address a code for the change, when its current factor is mailed codes. */
export async function sendAuthenticatorChangeCode(
  request: Request,
  user: CurrentUser,
): Promise<SendCodeResult | Refusal> {
  const state = authenticatorState(user.id);
  if (state.lockedUntil) return locked(state.lockedUntil);
  if (state.enabled) return { ok: false, status: 400, field: "code", message: AUTHENTICATOR_MESSAGES.useApp };
  return sendCodeMail({
    purpose: "authenticator-change",
    subject: String(user.id),
    to: user.email,
    topic: `authenticator-change:${user.id}`,
    limits: [
      {
        key: originLimitKey(request, "authenticator-change-code"),
        limit: 20,
        windowMs: HOUR_MS,
        message: AUTHENTICATOR_MESSAGES.tooManyCodes,
      },
    ],
    mail: ({ code, expiresAt }) => loginCodeMail({ code, expiresAt, for: "authenticator-change" }),
    messages: {
      tooSoon: (seconds) =>
        `認証コードは送信済みです。届いたコードを入力してください（再送信は${seconds}秒後から可能です）。`,
      notSent: AUTHENTICATOR_MESSAGES.codeNotSent,
    },
    log: "[authenticator] code mail failed",
  });
}

export type Identity = { password: string; code: string };

/**
 * The password, then the current second factor. Each failure counts on the account's own
 * counters (the login's), so this screen is no second door for guessing either.
 */
async function confirmIdentity(
  request: Request,
  user: CurrentUser,
  input: Identity,
): Promise<{ ok: true } | Refusal> {
  const password = await recheckPassword(request, user.id, input.password);
  if (!password.ok) {
    if (password.reason === "locked") return locked(password.lockedUntil);
    return {
      ok: false,
      status: 401,
      field: "password",
      message: password.message,
      warning: password.warning,
    };
  }
  const row = accountRow(user.id);
  if (!row) return { ok: false, status: 409, field: null, message: AUTHENTICATOR_MESSAGES.setupExpired };
  const factor = checkSecondFactor(row, input.code, "authenticator-change");
  const record = (outcome: "second-factor-failure" | "locked") =>
    recordLoginEvent({
      kind: row.isAdmin ? "admin" : "customer",
      email: row.email,
      userId: row.id,
      outcome,
      request,
    });
  if (factor.ok) {
    // Both right: as after a completed login, the counts start again.
    clearAccountFailures(row.id);
    return { ok: true };
  }
  if (factor.reason === "expired")
    return {
      ok: false,
      status: 400,
      field: "code",
      message: row.totpSecretEncrypted ? AUTHENTICATOR_MESSAGES.useApp : AUTHENTICATOR_MESSAGES.codeExpired,
    };
  if (factor.reason === "locked") {
    record(factor.counted ? "second-factor-failure" : "locked");
    return locked(factor.lockedUntil);
  }
  record("second-factor-failure");
  return { ok: false, status: 401, field: "code", message: factor.message, warning: factor.warning };
}

/** What the setup screen shows between starting and confirming: the new secret, and the token that binds it to that screen. */
export type SetupScreen = { token: string; secret: string; qrCode: string };

type PendingSetup = { token: string; secret: string };

function parsePending(sealed: string | null): PendingSetup | null {
  const plain = sealed ? open(sealed) : null;
  if (!plain) return null;
  try {
    const value: unknown = JSON.parse(plain);
    if (
      value &&
      typeof value === "object" &&
      "token" in value &&
      "secret" in value &&
      typeof value.token === "string" &&
      typeof value.secret === "string"
    )
      return { token: value.token, secret: value.secret };
  } catch {
    // not ours
  }
  return null;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** The pending setup's secret, for the screen holding its token, while it is not older than 15 minutes. */
function pendingSecret(userId: number, token: string): { secret: string; sealed: string } | null {
  const row = accountRow(userId);
  const sealed = row?.pendingTotpSecretEncrypted ?? null;
  const startedAt = row?.pendingTotpStartedAt ?? null;
  if (!sealed || !startedAt) return null;
  if (now().getTime() - startedAt.getTime() >= PENDING_SETUP_TTL_MS) {
    db()
      .update(users)
      .set({ pendingTotpSecretEncrypted: null, pendingTotpStartedAt: null })
      .where(eq(users.id, userId))
      .run();
    return null;
  }
  const pending = parsePending(sealed);
  if (!pending || !sameToken(pending.token, token)) return null;
  return { secret: pending.secret, sealed };
}

async function screenFor(email: string, pending: PendingSetup): Promise<SetupScreen> {
  const { dataUrl } = await totpQrCode(email, pending.secret);
  return { token: pending.token, secret: pending.secret, qrCode: dataUrl };
}

/** After the password and the current factor: a new secret, kept sealed on the server, shown to this screen only. */
export async function startAuthenticatorSetup(
  request: Request,
  user: CurrentUser,
  input: Identity,
): Promise<{ ok: true; setup: SetupScreen } | Refusal> {
  const identity = await confirmIdentity(request, user, input);
  if (!identity.ok) return identity;
  const pending: PendingSetup = {
    token: crypto.randomBytes(24).toString("base64url"),
    secret: newTotpSecret(),
  };
  db()
    .update(users)
    .set({ pendingTotpSecretEncrypted: seal(JSON.stringify(pending)), pendingTotpStartedAt: now() })
    .where(eq(users.id, user.id))
    .run();
  return { ok: true, setup: await screenFor(user.email, pending) };
}

/** The setup screen again (after a wrong confirming code), for the screen holding the token. */
export async function pendingSetupScreen(user: CurrentUser, token: string): Promise<SetupScreen | null> {
  const pending = pendingSecret(user.id, token);
  return pending ? screenFor(user.email, { token, secret: pending.secret }) : null;
}

/** Confirms the new app's first code; only then does its secret replace the login's second factor. */
export function confirmAuthenticator(
  session: ShopSession,
  user: CurrentUser,
  token: string,
  code: string,
): { ok: true; change: AuthenticatorChange } | Refusal {
  const pending = pendingSecret(user.id, token);
  if (!pending) return { ok: false, status: 409, field: null, message: AUTHENTICATOR_MESSAGES.setupExpired };
  const step = totpStep(code, pending.secret);
  if (step === null)
    return { ok: false, status: 400, field: "code", message: AUTHENTICATOR_MESSAGES.wrongSetupCode };
  const replaced = isAuthenticatorEnabled(user.id);
  const stored = db()
    .update(users)
    // The confirming code is used up: it cannot log in a second time.
    .set({
      totpSecretEncrypted: seal(pending.secret),
      totpLastStep: step,
      pendingTotpSecretEncrypted: null,
      pendingTotpStartedAt: null,
    })
    // Only the setup just checked: two confirmations racing cannot both store.
    .where(and(eq(users.id, user.id), eq(users.pendingTotpSecretEncrypted, pending.sealed)))
    .run();
  if (stored.changes !== 1)
    return { ok: false, status: 409, field: null, message: AUTHENTICATOR_MESSAGES.setupExpired };
  const change = replaced ? "replaced" : "set-up";
  afterChange(session, user, change);
  return { ok: true, change };
}

/**
 * The JSON call's confirmation (POST /api/verify-2fa): the caller holds the secret it was shown
 * instead of the screen's token, so the setup is found by that secret. It only has to match the
 * setup started on the server; it never becomes a secret itself.
 */
export function confirmAuthenticatorWithSecret(
  session: ShopSession,
  user: CurrentUser,
  secret: string,
  code: string,
): { ok: true; change: AuthenticatorChange } | Refusal {
  const pending = parsePending(accountRow(user.id)?.pendingTotpSecretEncrypted ?? null);
  if (!pending || !sameToken(pending.secret, secret))
    return { ok: false, status: 409, field: null, message: AUTHENTICATOR_MESSAGES.setupExpired };
  // Its token then goes through the screen's own check (the 15 minutes included).
  return confirmAuthenticator(session, user, pending.token, code);
}

/** Back to codes by mail: with the password and the current app's code, like any other change. */
export async function removeAuthenticator(
  request: Request,
  session: ShopSession,
  user: CurrentUser,
  input: Identity,
): Promise<{ ok: true } | Refusal> {
  if (!isAuthenticatorEnabled(user.id))
    return { ok: false, status: 409, field: null, message: AUTHENTICATOR_MESSAGES.notEnabled };
  const identity = await confirmIdentity(request, user, input);
  if (!identity.ok) return identity;
  db()
    .update(users)
    .set({ totpSecretEncrypted: null, pendingTotpSecretEncrypted: null, pendingTotpStartedAt: null })
    .where(eq(users.id, user.id))
    .run();
  afterChange(session, user, "removed");
  return { ok: true };
}

/** Whoever else was logged in as this account is logged out, and the owner hears of the change. */
function afterChange(session: ShopSession, user: CurrentUser, change: AuthenticatorChange): void {
  endLogins(user.id, session);
  sendThroughOutbox({
    to: user.email,
    mail: authenticatorChangedMail({ name: user.name, change, changedAt: now() }),
  }).catch((error: unknown) => console.error("[authenticator] notice mail failed", error));
}
