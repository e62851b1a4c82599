import { eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { seal } from "../core/secret-box.server";
import type { ShopSession } from "../http/session.server";
import { newTotpSecret, totpQrCode, totpStep } from "./totp.server";

/** The secret being set up is kept in the signed session until its first code is confirmed. */
export async function authenticatorSetup(session: ShopSession, email: string) {
  let secret = session.get("pendingTotpSecret");
  if (!secret) {
    secret = newTotpSecret();
    session.set("pendingTotpSecret", secret);
  }
  const { dataUrl } = await totpQrCode(email, secret);
  return { secret, qrCode: dataUrl };
}

export function isAuthenticatorEnabled(userId: number): boolean {
  return Boolean(
    db().select({ secret: users.totpSecretEncrypted }).from(users).where(eq(users.id, userId)).get()?.secret,
  );
}

/** Confirms the first code; only then is the secret stored (encrypted) and used at login. */
export function confirmAuthenticator(
  session: ShopSession,
  userId: number,
  code: string,
): { ok: true } | { ok: false; message: string } {
  const secret = session.get("pendingTotpSecret");
  if (!secret)
    return { ok: false, message: "設定情報の取得に失敗しました。ページを再読み込みしてください。" };
  const step = totpStep(code, secret);
  if (step === null)
    return { ok: false, message: "認証コードが正しくありません。認証アプリの時刻設定もご確認ください。" };
  db()
    .update(users)
    // The confirming code is used up: it cannot log in a second time.
    .set({ totpSecretEncrypted: seal(secret), totpLastStep: step })
    .where(eq(users.id, userId))
    .run();
  session.unset("pendingTotpSecret");
  return { ok: true };
}
