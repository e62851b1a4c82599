import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { readHead, sniffImage } from "../files/sniff.server";

/**
 * Configuration, read once from the environment and validated at start-up.
 * A bad value stops the server with a message that names the variable, so a
 * misconfigured deploy fails loudly instead of half-working.
 */

const DEV_SESSION_SECRET = "dev-only-session-secret-change-me-0123456789";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const port = z.coerce
  .number({ invalid_type_error: "1〜65535 の整数で指定してください" })
  .int("1〜65535 の整数で指定してください")
  .min(1, "1〜65535 の整数で指定してください")
  .max(65535, "1〜65535 の整数で指定してください");

const filePath = z
  .string()
  .trim()
  .min(1, "ファイルのパスを指定してください")
  .refine((value) => value !== ":memory:", "ファイルのパスを指定してください（:memory: は使えません）")
  .refine(
    (value) => !value.endsWith("/") && !isDirectory(value),
    "ディレクトリではなくファイルのパスを指定してください",
  )
  .refine((value) => !isExistingFile(path.dirname(value)), "親ディレクトリがファイルになっています");

function isDirectory(target: string) {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

function isExistingFile(target: string) {
  try {
    return fs.statSync(target).isFile();
  } catch {
    return false;
  }
}

function isBannerImage(file: string) {
  try {
    return sniffImage(readHead(file)) !== null;
  } catch {
    return false;
  }
}

const url = (message: string) => z.string().trim().url(message);

/** S3 refuses a multipart upload whose parts (all but the last) are smaller than this. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

/** `s3://bucket/prefix`: a bucket name as S3 allows it, then an optional key prefix. */
const STORAGE_URL_PATTERN = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** What the object storage is, when STORAGE_URL names one (see app/server/files/s3-store.server.ts). */
export type S3Config = {
  bucket: string;
  /** Every key starts with it: empty, or ending in "/". */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** A CDN (or the bucket's public address) that serves public media; without a trailing "/". */
  publicBaseUrl: string | undefined;
};

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: port.default(3000),
    DATABASE_PATH: filePath.default("./data/shop.db"),
    MEDIA_DIR: z.string().trim().min(1, "ディレクトリのパスを指定してください").default("./data/media"),
    MAIL_DIR: z.string().trim().min(1, "ディレクトリのパスを指定してください").default("./data/mail"),
    SESSION_SECRET: optionalText,
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, "smtp:// または smtps:// で始まる URL を指定してください")
        .optional(),
    ),
    MAIL_FROM: z
      .string()
      .trim()
      .email("送信元メールアドレスの形式が正しくありません")
      .default("shop@example.jp"),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    STRIPE_API_URL: optionalText.pipe(url("URL の形式が正しくありません").optional()),
    /**
     * Who takes the payments: `stripe`, or `test` (the built-in テストモード: a test card number and
     * a konbini stand-in, no money moves). Unset: Stripe when its key is set; otherwise production
     * refuses to start, so a shop whose keys went missing never takes pretend payments.
     */
    PAYMENT_PROVIDER: optionalText.pipe(
      z.enum(["stripe", "test"], { message: "stripe か test を指定してください" }).optional(),
    ),
    ADMIN_EMAIL: optionalText.pipe(z.string().email("メールアドレスの形式が正しくありません").optional()),
    ADMIN_PASSWORD: optionalText.pipe(z.string().min(12, "12 文字以上で指定してください").optional()),
    SITE_URL: url("URL の形式が正しくありません（例: https://shop.example.jp）").default(
      "http://localhost:3000",
    ),
    /**
     * Key for secrets kept in the database (authenticator secrets). Required in production:
     * a key derived from a session secret would make every stored secret unreadable the day
     * that session secret is retired. Development and tests derive one (see parseEnv).
     */
    ENCRYPTION_KEY: optionalText.pipe(z.string().min(32, "32 文字以上の値を指定してください").optional()),
    /** Largest single uploaded file (delivered videos, media), in bytes. */
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1024, "1024 以上の整数で指定してください")
      .default(8 * 1024 ** 3),
    /** Size of each piece of a chunked media upload (the spec's 50 MiB); tests set a small one. */
    UPLOAD_CHUNK_BYTES: z.coerce
      .number()
      .int("1024〜1073741824 の整数で指定してください")
      .min(1024, "1024〜1073741824 の整数で指定してください")
      .max(1024 ** 3, "1024〜1073741824 の整数で指定してください")
      .default(50 * 1024 ** 2),
    /** After SIGTERM or SIGINT, how long requests in flight may take before their connections are closed (server/index.ts). */
    SHUTDOWN_GRACE_MS: z.coerce
      .number()
      .int("0〜600000 の整数（ミリ秒）で指定してください")
      .min(0, "0〜600000 の整数（ミリ秒）で指定してください")
      .max(600_000, "0〜600000 の整数（ミリ秒）で指定してください")
      .default(10_000),
    DOWNLOAD_EXPIRY_DAYS: z.coerce
      .number()
      .int()
      .min(1, "1 以上の整数で指定してください")
      .max(365)
      .default(30),
    /** Days a konbini voucher stays payable (Stripe's expires_after_days, 1–60). */
    KONBINI_EXPIRES_AFTER_DAYS: z.coerce
      .number({ invalid_type_error: "1〜60 の整数で指定してください" })
      .int("1〜60 の整数で指定してください")
      .min(1, "1〜60 の整数で指定してください")
      .max(60, "1〜60 の整数で指定してください")
      .default(3),
    /** Business days from payment to delivery promised on the order status page (weekends and holidays skipped). */
    DELIVERY_BUSINESS_DAYS: z.coerce
      .number({ invalid_type_error: "0〜30 の整数で指定してください" })
      .int("0〜30 の整数で指定してください")
      .min(0, "0〜30 の整数で指定してください")
      .max(30, "0〜30 の整数で指定してください")
      .default(3),
    /** 適格請求書発行事業者の登録番号 (T + 13 digits). When set, receipts are 適格簡易請求書. */
    SELLER_INVOICE_NUMBER: optionalText.pipe(
      z
        .string()
        .regex(/^T\d{13}$/, "T に続く 13 桁の数字で指定してください（例: T1234567890123）")
        .optional(),
    ),
    SELLER_NAME: z.string().trim().min(1).default("株式会社コンテストビデオ（デモ）"),
    SELLER_MANAGER: z.string().trim().min(1).default("山田 太郎"),
    SELLER_ADDRESS: z.string().trim().min(1).default("〒100-0005 東京都千代田区丸の内1-1-1 デモビル5階"),
    SELLER_PHONE: z.string().trim().min(1).default("請求があった場合には遅滞なく開示いたします"),
    SELLER_EMAIL: z
      .string()
      .trim()
      .email("メールアドレスの形式が正しくありません")
      .default("support@example.jp"),
    /** Test-only routes (e.g. one that throws, to show the error fallback). Never on an https site. */
    ENABLE_TEST_HOOKS: z
      .enum(["true", "false", ""], { message: "true か false を指定してください" })
      .default("false")
      .transform((value) => value === "true"),
    SELLER_HOURS: z.string().trim().min(1).default("平日 10:00〜17:00（土日祝・年末年始を除く）"),
    /** Answers say `X-Render-Cache: hit|miss` (for measuring): off by default, since it tells anyone whether a page was drawn recently for someone. */
    DEBUG_RENDER_CACHE: z
      .enum(["true", "false", ""], { message: "true か false を指定してください" })
      .default("false")
      .transform((value) => value === "true"),
    /**
     * Which proxy tells the client's address (per-origin limits, login records): `fly` (its edge
     * sets Fly-Client-IP), the number of proxies in front that each append to X-Forwarded-For,
     * or `none`. Unset: `fly` on fly.io (which sets FLY_APP_NAME), else `none` — see parseEnv.
     */
    TRUST_PROXY: optionalText.pipe(
      z
        .string()
        .regex(
          /^(fly|none|[1-9]|10)$/,
          "fly、none、または信頼するプロキシの段数（1〜10 の整数）を指定してください",
        )
        .transform((value): "fly" | "none" | number =>
          value === "fly" || value === "none" ? value : Number(value),
        )
        .optional(),
    ),
    FLY_APP_NAME: optionalText,
    /** The home page's banner photo: a JPEG, PNG or WebP file on the server (see app/server/media/home-banner.server.ts). */
    HOME_BANNER_IMAGE: optionalText.pipe(
      z
        .string()
        .refine(
          isExistingFile,
          "画像ファイルが見つかりません（サーバー上のファイルのパスを指定してください）",
        )
        .refine(isBannerImage, "JPEG・PNG・WebP の画像ファイルを指定してください")
        .optional(),
    ),
    /** What the banner photo shows, for those who cannot see it. */
    HOME_BANNER_ALT: optionalText,
    /**
     * Where stored files live: unset, the MEDIA_DIR folder; `s3://bucket/prefix`, S3-compatible
     * object storage (R2, S3, Tigris, MinIO) reached with the S3_* variables below.
     */
    STORAGE_URL: optionalText.pipe(
      z
        .string()
        .regex(
          STORAGE_URL_PATTERN,
          "s3://バケット名/プレフィックス の形式で指定してください（例: s3://shop-media/videos）",
        )
        .optional(),
    ),
    S3_ENDPOINT: optionalText.pipe(
      url("URL の形式が正しくありません（例: https://…r2.cloudflarestorage.com）").optional(),
    ),
    S3_REGION: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: z
      .enum(["true", "false", ""], { message: "true か false を指定してください" })
      .default("false")
      .transform((value) => value === "true"),
    S3_PUBLIC_BASE_URL: optionalText.pipe(
      z
        .string()
        .url("URL の形式が正しくありません（例: https://media.example.jp）")
        .regex(/^https?:\/\/[^?#]+$/, "クエリや # のない URL を指定してください")
        .transform((value) => value.replace(/\/+$/, ""))
        .optional(),
    ),
    /** The LiteFS mount folder (where its `.primary` file appears on replicas); unset without LiteFS. */
    LITEFS_DIR: optionalText,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production") {
      const secrets = splitSecrets(env.SESSION_SECRET);
      if (secrets.length === 0) {
        ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "本番環境では必須です" });
      } else if (secrets.some((secret) => secret.length < 32)) {
        ctx.addIssue({
          code: "custom",
          path: ["SESSION_SECRET"],
          message: "32 文字以上の値を指定してください",
        });
      }
    }
    if (env.NODE_ENV === "production" && !env.ENCRYPTION_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["ENCRYPTION_KEY"],
        message:
          "本番環境では必須です。32 文字以上のランダムな値を指定し、以後は変えないでください（認証アプリの秘密鍵の暗号化に使います）",
      });
    }
    if (env.ENABLE_TEST_HOOKS && env.SITE_URL.startsWith("https://")) {
      ctx.addIssue({
        code: "custom",
        path: ["ENABLE_TEST_HOOKS"],
        message: "https で公開するサイトでは有効にできません",
      });
    }
    if (env.PAYMENT_PROVIDER === "stripe" && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message: "PAYMENT_PROVIDER=stripe では必須です",
      });
    }
    if (!env.PAYMENT_PROVIDER && !env.STRIPE_SECRET_KEY && env.NODE_ENV === "production") {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_PROVIDER"],
        message:
          "本番環境では、Stripe のキー（STRIPE_SECRET_KEY と STRIPE_PUBLISHABLE_KEY）を指定してください。お金の動かないテスト用の決済で動かす場合（デモ、検証用）に限り PAYMENT_PROVIDER=test を指定してください",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_PUBLISHABLE_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_PUBLISHABLE_KEY"],
        message: "STRIPE_SECRET_KEY と一緒に指定してください",
      });
    }
    if (env.STORAGE_URL) {
      for (const name of ["S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[name])
          ctx.addIssue({ code: "custom", path: [name], message: "STORAGE_URL を指定したときは必須です" });
      }
      // One S3 part per chunk: every part but the last must be at least 5 MiB (decision 0019).
      if (env.UPLOAD_CHUNK_BYTES < S3_MIN_PART_BYTES)
        ctx.addIssue({
          code: "custom",
          path: ["UPLOAD_CHUNK_BYTES"],
          message: `STORAGE_URL（オブジェクトストレージ）では ${S3_MIN_PART_BYTES}（5 MiB）以上を指定してください`,
        });
    } else {
      for (const name of [
        "S3_ENDPOINT",
        "S3_REGION",
        "S3_ACCESS_KEY_ID",
        "S3_SECRET_ACCESS_KEY",
        "S3_PUBLIC_BASE_URL",
      ] as const) {
        if (env[name])
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "STORAGE_URL と一緒に指定してください（未指定ではメディアは MEDIA_DIR に保存されます）",
          });
      }
    }
    if (env.LITEFS_DIR) {
      // Several machines share no folder: their files must be in a bucket.
      if (!env.STORAGE_URL)
        ctx.addIssue({
          code: "custom",
          path: ["LITEFS_DIR"],
          message:
            "LiteFS（複数のサーバー）では、メディアをオブジェクトストレージ（STORAGE_URL）に置いてください",
        });
      if (path.dirname(path.resolve(env.DATABASE_PATH)) !== path.resolve(env.LITEFS_DIR))
        ctx.addIssue({
          code: "custom",
          path: ["DATABASE_PATH"],
          message: `LiteFS が複製するのは LITEFS_DIR（${env.LITEFS_DIR}）の中のファイルです（例: ${path.join(env.LITEFS_DIR, "shop.db")}）`,
        });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: [env.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"],
        message: "ADMIN_EMAIL と ADMIN_PASSWORD は両方指定してください",
      });
    }
  });

function splitSecrets(value: string | undefined) {
  return (value ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
}

/** `fly`, the number of trusted X-Forwarded-For hops, or `none` (the socket's peer is the caller). */
export type TrustProxy = "fly" | "none" | number;

export type Env = Omit<
  z.infer<typeof schema>,
  | "SESSION_SECRET"
  | "ENCRYPTION_KEY"
  | "TRUST_PROXY"
  | "PAYMENT_PROVIDER"
  | "STORAGE_URL"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "S3_PUBLIC_BASE_URL"
> & {
  /** Newest first: the first signs, all verify (rotation). */
  SESSION_SECRETS: string[];
  /** Always set: the configured key, or in development and tests one derived from the oldest session secret. */
  ENCRYPTION_KEY: string;
  /** Cookies get `Secure` (and the `__Host-` prefix) only when the shop is served over https. */
  SECURE_COOKIES: boolean;
  TRUST_PROXY: TrustProxy;
  /** Always decided: the configured provider, or Stripe when its key is set, else (outside production) test. */
  PAYMENT_PROVIDER: "stripe" | "test";
  /** The object storage STORAGE_URL names, or null: stored files live in MEDIA_DIR. */
  S3: S3Config | null;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Pure: parse a given environment. Throws ConfigError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(全体)"}: ${issue.message}`,
    );
    throw new ConfigError(`設定エラー: 環境変数の値が正しくありません\n${lines.join("\n")}`);
  }
  const {
    SESSION_SECRET,
    ENCRYPTION_KEY,
    TRUST_PROXY,
    PAYMENT_PROVIDER,
    STORAGE_URL,
    S3_ENDPOINT,
    S3_REGION,
    S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE,
    S3_PUBLIC_BASE_URL,
    ...rest
  } = result.data;
  const storage = STORAGE_URL ? STORAGE_URL_PATTERN.exec(STORAGE_URL) : null;
  const secrets = splitSecrets(SESSION_SECRET);
  const sessionSecrets = secrets.length > 0 ? secrets : [DEV_SESSION_SECRET];
  return {
    ...rest,
    SESSION_SECRETS: sessionSecrets,
    // Outside production only (production refuses to start without the key): the oldest
    // session secret, as before the key was required, so development data stays readable.
    ENCRYPTION_KEY: ENCRYPTION_KEY ?? sessionSecrets[sessionSecrets.length - 1] ?? DEV_SESSION_SECRET,
    SECURE_COOKIES: rest.SITE_URL.startsWith("https://"),
    // Without a proxy in front, every X-Forwarded-For entry is whatever the client wrote, so
    // trusting one by default would let any client choose its own per-origin bucket; with `none`
    // the caller is the socket's peer (server/index.ts). fly.io's edge always sets Fly-Client-IP,
    // and FLY_APP_NAME tells it is there.
    TRUST_PROXY: TRUST_PROXY ?? (rest.FLY_APP_NAME ? "fly" : "none"),
    PAYMENT_PROVIDER: PAYMENT_PROVIDER ?? (rest.STRIPE_SECRET_KEY ? "stripe" : "test"),
    S3: storage
      ? {
          bucket: storage[1]!,
          prefix: (storage[2] ?? "").replace(/^\/+|\/+$/g, "").replace(/(.)$/, "$1/"),
          endpoint: S3_ENDPOINT,
          region: S3_REGION ?? "",
          accessKeyId: S3_ACCESS_KEY_ID ?? "",
          secretAccessKey: S3_SECRET_ACCESS_KEY ?? "",
          forcePathStyle: S3_FORCE_PATH_STYLE,
          publicBaseUrl: S3_PUBLIC_BASE_URL,
        }
      : null,
  };
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
