import { authenticator } from "otplib";
import QRCode from "qrcode";
import { now } from "../core/clock.server";

// One step either side, so a phone whose clock is 30 s off still works.
authenticator.options = { window: 1 };

const ISSUER = "コンテスト動画ショップ";

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export function checkTotp(code: string, secret: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  authenticator.options = { window: 1, epoch: now().getTime() };
  try {
    return authenticator.check(code, secret);
  } catch {
    return false;
  }
}

/** The otpauth:// URI and its QR code as a data: URL image, shown without any script. */
export async function totpQrCode(email: string, secret: string): Promise<{ uri: string; dataUrl: string }> {
  const uri = authenticator.keyuri(email, ISSUER, secret);
  return { uri, dataUrl: await QRCode.toDataURL(uri, { margin: 1, width: 240, errorCorrectionLevel: "M" }) };
}
