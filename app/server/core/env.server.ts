import type { z } from "zod";
import { backupSettings, backupStorage } from "./env/backup-settings.server";
import { checkTogether, configError } from "./env/config-report.server";
import { mailSettings } from "./env/mail-settings.server";
import { paymentProvider, paymentSettings } from "./env/payment-settings.server";
import { encryptionKey, secretSettings, sessionSecrets } from "./env/secret-settings.server";
import { serverSettings, trustProxy } from "./env/server-settings.server";
import { shopSettings } from "./env/shop-settings.server";
import { objectStorage, storageSettings } from "./env/storage-settings.server";

/**
 * Configuration, read once from the environment and validated at start-up. Each group of
 * settings is its own module under env/ (its variables and their shapes); what is wrong across
 * them, and the message that stops the server naming every bad variable, is env/config-report.
 */

const schema = serverSettings
  .merge(secretSettings)
  .merge(mailSettings)
  .merge(paymentSettings)
  .merge(shopSettings)
  .merge(storageSettings)
  .merge(backupSettings)
  .superRefine(checkTogether);

/** What STORAGE_URL names (see app/server/files/s3-store.server.ts). */
export type S3Config = NonNullable<ReturnType<typeof objectStorage>>;

/** `fly`, the number of trusted X-Forwarded-For hops, or `none` (the socket's peer is the caller). */
export type TrustProxy = ReturnType<typeof trustProxy>;

/** The variables as read, less those turned into the settings below it. */
type Read = z.infer<typeof schema>;

export type Env = Omit<
  Read,
  | "SESSION_SECRET"
  | "ENCRYPTION_KEY"
  | "TRUST_PROXY"
  | "PAYMENT_PROVIDER"
  | keyof z.infer<typeof storageSettings>
  | "BACKUP_INTERVAL_MINUTES"
  | "BACKUP_URL"
  | "BACKUP_S3_ENDPOINT"
  | "BACKUP_S3_REGION"
  | "BACKUP_S3_ACCESS_KEY_ID"
  | "BACKUP_S3_SECRET_ACCESS_KEY"
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
  /** Where the database's copies go (BACKUP_URL, else the media bucket), or null: BACKUP_DIR only. */
  BACKUP_S3: S3Config | null;
  /** Always decided: the configured minutes, or a day under Litestream, else 15. */
  BACKUP_INTERVAL_MINUTES: number;
};

/** Pure: parse a given environment. Throws ConfigError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) throw configError(result.error.issues);
  const read = result.data;
  const {
    SESSION_SECRET,
    ENCRYPTION_KEY,
    TRUST_PROXY,
    PAYMENT_PROVIDER,
    STORAGE_URL: _storageUrl,
    S3_ENDPOINT: _endpoint,
    S3_REGION: _region,
    S3_ACCESS_KEY_ID: _accessKeyId,
    S3_SECRET_ACCESS_KEY: _secretAccessKey,
    S3_FORCE_PATH_STYLE: _forcePathStyle,
    S3_PUBLIC_BASE_URL: _publicBaseUrl,
    BACKUP_URL: _backupUrl,
    BACKUP_S3_ENDPOINT: _backupEndpoint,
    BACKUP_S3_REGION: _backupRegion,
    BACKUP_S3_ACCESS_KEY_ID: _backupAccessKeyId,
    BACKUP_S3_SECRET_ACCESS_KEY: _backupSecretAccessKey,
    ...rest
  } = read;
  const secrets = sessionSecrets(SESSION_SECRET);
  return {
    ...rest,
    SESSION_SECRETS: secrets,
    ENCRYPTION_KEY: encryptionKey(ENCRYPTION_KEY, secrets),
    SECURE_COOKIES: rest.SITE_URL.startsWith("https://"),
    TRUST_PROXY: trustProxy(TRUST_PROXY, rest.FLY_APP_NAME),
    PAYMENT_PROVIDER: paymentProvider(PAYMENT_PROVIDER, rest.STRIPE_SECRET_KEY),
    S3: objectStorage(read),
    BACKUP_S3: backupStorage(read),
    BACKUP_INTERVAL_MINUTES: read.BACKUP_INTERVAL_MINUTES ?? (read.LITESTREAM_REPLICATES ? 1440 : 15),
  };
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
