import crypto from "node:crypto";
import { env } from "./env.server";

/**
 * AES-256-GCM for secrets kept in the database (authenticator secrets), so a dump of
 * the SQLite file alone does not reveal them. The key comes from ENCRYPTION_KEY alone,
 * never from the session secrets, so rotating those leaves stored secrets readable.
 */
function key(): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", env().ENCRYPTION_KEY, "contest-video-shop", "secret-box", 32));
}

export function seal(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

export function open(sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) return null;
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
