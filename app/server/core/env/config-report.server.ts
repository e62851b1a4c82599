import type { z } from "zod";
import type { backupSettings } from "./backup-settings.server";
import type { mailSettings } from "./mail-settings.server";
import type { paymentSettings } from "./payment-settings.server";
import { splitSecrets, type secretSettings } from "./secret-settings.server";
import type { serverSettings } from "./server-settings.server";
import type { shopSettings } from "./shop-settings.server";
import { S3_MIN_PART_BYTES, S3_VARIABLES, type storageSettings } from "./storage-settings.server";

/**
 * What is wrong with a configuration: the rules between variables (each variable's own shape
 * is its group's), and the one message that names every bad variable, so a misconfigured
 * deploy stops at start-up listing all it must fix instead of half-working.
 */

type Settings = z.infer<typeof serverSettings> &
  z.infer<typeof secretSettings> &
  z.infer<typeof mailSettings> &
  z.infer<typeof paymentSettings> &
  z.infer<typeof shopSettings> &
  z.infer<typeof storageSettings> &
  z.infer<typeof backupSettings>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The start-up message: one line per bad variable, as `NAME: what to do`. */
export function configError(issues: z.ZodIssue[]): ConfigError {
  const lines = issues.map((issue) => `  ${issue.path.join(".") || "(全体)"}: ${issue.message}`);
  return new ConfigError(`設定エラー: 環境変数の値が正しくありません\n${lines.join("\n")}`);
}

/** The rules that need two variables or more (a zod superRefine over the whole configuration). */
export function checkTogether(env: Settings, ctx: z.RefinementCtx) {
  const problem = (name: keyof Settings, message: string) =>
    ctx.addIssue({ code: "custom", path: [name], message });

  if (env.NODE_ENV === "production") {
    const secrets = splitSecrets(env.SESSION_SECRET);
    if (secrets.length === 0) problem("SESSION_SECRET", "本番環境では必須です");
    else if (secrets.some((secret) => secret.length < 32))
      problem("SESSION_SECRET", "32 文字以上の値を指定してください");
  }
  if (env.NODE_ENV === "production" && !env.ENCRYPTION_KEY) {
    problem(
      "ENCRYPTION_KEY",
      "本番環境では必須です。32 文字以上のランダムな値を指定し、以後は変えないでください（認証アプリの秘密鍵の暗号化に使います）",
    );
  }
  if (env.ENABLE_TEST_HOOKS && env.SITE_URL.startsWith("https://")) {
    problem("ENABLE_TEST_HOOKS", "https で公開するサイトでは有効にできません");
  }
  if (env.PAYMENT_PROVIDER === "stripe" && !env.STRIPE_SECRET_KEY) {
    problem("STRIPE_SECRET_KEY", "PAYMENT_PROVIDER=stripe では必須です");
  }
  if (!env.PAYMENT_PROVIDER && !env.STRIPE_SECRET_KEY && env.NODE_ENV === "production") {
    problem(
      "PAYMENT_PROVIDER",
      "本番環境では、Stripe のキー（STRIPE_SECRET_KEY と STRIPE_PUBLISHABLE_KEY）を指定してください。お金の動かないテスト用の決済で動かす場合（デモ、検証用）に限り PAYMENT_PROVIDER=test を指定してください",
    );
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_PUBLISHABLE_KEY) {
    problem("STRIPE_PUBLISHABLE_KEY", "STRIPE_SECRET_KEY と一緒に指定してください");
  }
  checkStorage(env, problem);
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    problem(
      env.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL",
      "ADMIN_EMAIL と ADMIN_PASSWORD は両方指定してください",
    );
  }
}

/** A bucket needs its credentials and parts S3 accepts; without one, the S3_* variables mean nothing. */
function checkStorage(env: Settings, problem: (name: keyof Settings, message: string) => void) {
  if (env.STORAGE_URL) {
    for (const name of ["S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!env[name]) problem(name, "STORAGE_URL を指定したときは必須です");
    }
    // One S3 part per chunk: every part but the last must be at least 5 MiB (decision 0019).
    if (env.UPLOAD_CHUNK_BYTES < S3_MIN_PART_BYTES)
      problem(
        "UPLOAD_CHUNK_BYTES",
        `STORAGE_URL（オブジェクトストレージ）では ${S3_MIN_PART_BYTES}（5 MiB）以上を指定してください`,
      );
  } else {
    // Without STORAGE_URL, the S3_* variables may still reach the backup bucket (BACKUP_URL).
    const usedByBackups = (name: string) => env.BACKUP_URL && name !== "S3_PUBLIC_BASE_URL";
    for (const name of S3_VARIABLES) {
      if (env[name] && !usedByBackups(name))
        problem(
          name,
          "STORAGE_URL と一緒に指定してください（未指定ではメディアは MEDIA_DIR に保存されます）",
        );
    }
  }
  checkBackupBucket(env, problem);
}

/** BACKUP_URL's bucket needs a region and keys, its own (BACKUP_S3_*) or the media bucket's (S3_*). */
function checkBackupBucket(env: Settings, problem: (name: keyof Settings, message: string) => void) {
  const own = [
    "BACKUP_S3_ENDPOINT",
    "BACKUP_S3_REGION",
    "BACKUP_S3_ACCESS_KEY_ID",
    "BACKUP_S3_SECRET_ACCESS_KEY",
  ] as const;
  if (!env.BACKUP_URL) {
    for (const name of own) if (env[name]) problem(name, "BACKUP_URL と一緒に指定してください");
    return;
  }
  for (const [name, fallback] of [
    ["BACKUP_S3_REGION", "S3_REGION"],
    ["BACKUP_S3_ACCESS_KEY_ID", "S3_ACCESS_KEY_ID"],
    ["BACKUP_S3_SECRET_ACCESS_KEY", "S3_SECRET_ACCESS_KEY"],
  ] as const) {
    if (!env[name] && !env[fallback])
      problem(name, `BACKUP_URL を指定したときは必須です（未指定なら ${fallback} を使います）`);
  }
}
