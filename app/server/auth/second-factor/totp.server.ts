import { authenticator } from "otplib";
import { now } from "../../core/clock.server";
import { loadQrCode } from "../../core/lazy-modules.server";
import { SHOP_NAME } from "~/lib/rules/shop";

// One step either side, so a phone whose clock is 30 s off still works.
authenticator.options = { window: 1 };

const ISSUER = SHOP_NAME;

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

const STEP_SECONDS = 30;

/**
 * The time step (30 s since the epoch) whose code this is, or null when it matches none in
 * the window. The login accepts each step once (users.totpLastStep), so a code seen by
 * someone else is worth nothing once used.
 */
export function totpStep(code: string, secret: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = now().getTime();
  authenticator.options = { window: 1, epoch, step: STEP_SECONDS };
  try {
    const delta = authenticator.checkDelta(code, secret);
    return delta === null ? null : Math.floor(epoch / 1000 / STEP_SECONDS) + delta;
  } catch {
    return null;
  }
}

/** The otpauth:// URI and its QR code as a data: URL image, shown without any script. */
export async function totpQrCode(email: string, secret: string): Promise<{ uri: string; dataUrl: string }> {
  const uri = authenticator.keyuri(email, ISSUER, secret);
  const QRCode = await loadQrCode();
  return { uri, dataUrl: await QRCode.toDataURL(uri, { margin: 1, width: 240, errorCorrectionLevel: "M" }) };
}
