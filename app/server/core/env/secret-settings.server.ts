import { z } from "zod";
import { optionalText } from "./values.server";

/** The keys the shop signs and seals with, and the first admin made at start-up. */
export const secretSettings = z.object({
  /** One secret, or several separated by commas for rotation (newest first). */
  SESSION_SECRET: optionalText,
  /**
   * Key for secrets kept in the database (authenticator secrets). Required in production:
   * a key derived from a session secret would make every stored secret unreadable the day
   * that session secret is retired. Development and tests derive one (see encryptionKey).
   */
  ENCRYPTION_KEY: optionalText.pipe(z.string().min(32, "32 文字以上の値を指定してください").optional()),
  /**
   * What a scraper of /metrics sends as `Authorization: Bearer …` (app/server/metrics/access.server.ts).
   * Unset: only the private network (loopback, fly.io's 6PN) may read it.
   */
  METRICS_TOKEN: optionalText.pipe(z.string().min(32, "32 文字以上の値を指定してください").optional()),
  ADMIN_EMAIL: optionalText.pipe(z.string().email("メールアドレスの形式が正しくありません").optional()),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(12, "12 文字以上で指定してください").optional()),
});

const DEV_SESSION_SECRET = "dev-only-session-secret-change-me-0123456789";

export function splitSecrets(value: string | undefined) {
  return (value ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
}

/** Newest first: the first signs, all verify. Outside production (which requires them) a fixed one. */
export function sessionSecrets(configured: string | undefined): string[] {
  const secrets = splitSecrets(configured);
  return secrets.length > 0 ? secrets : [DEV_SESSION_SECRET];
}

/**
 * The configured key; outside production only (production refuses to start without it), the
 * oldest session secret, as before the key was required, so development data stays readable.
 */
export function encryptionKey(configured: string | undefined, secrets: string[]): string {
  return configured ?? secrets[secrets.length - 1] ?? DEV_SESSION_SECRET;
}
