import { z } from "zod";
import { flag, folderPath, integerBetween, optionalText, port, url } from "./values.server";
import { objectStorage, storageSettings } from "./storage-settings.server";

/** The snapshots the shop takes of its database itself (app/server/backups/). */
export const backupSettings = z.object({
  /**
   * Where the database's copies go: `s3://bucket/prefix`, a bucket (or a prefix) of their own,
   * reached with the BACKUP_S3_* variables (each unset one taken from S3_*). Under it: the
   * Litestream replica (`litestream/`) and the snapshots (`backups/`). Unset: the media bucket
   * (STORAGE_URL, the same places under its prefix), else snapshots only, in BACKUP_DIR.
   */
  BACKUP_URL: storageSettings.shape.STORAGE_URL,
  BACKUP_S3_ENDPOINT: optionalText.pipe(
    url("URL の形式が正しくありません（例: https://…r2.cloudflarestorage.com）").optional(),
  ),
  BACKUP_S3_REGION: optionalText,
  BACKUP_S3_ACCESS_KEY_ID: optionalText,
  BACKUP_S3_SECRET_ACCESS_KEY: optionalText,
  /**
   * Set by scripts/start.sh when this server runs under `litestream replicate` (decision 0041):
   * Litestream then does every checkpoint of the WAL (it must see every frame before the WAL is
   * reset), so the shop turns its own off, at start (autocheckpoint) and at the stop (TRUNCATE).
   */
  LITESTREAM_REPLICATES: flag(),
  /** Where Litestream answers with its numbers, on this machine only (read for /metrics and システム状態). */
  LITESTREAM_METRICS_PORT: port.default(9099),
  /**
   * Minutes between snapshots; 0 turns them off (a shop backed up some other way). Unset: a day
   * under Litestream (the snapshots are then the daily and monthly archive, decision 0041), else 15.
   */
  BACKUP_INTERVAL_MINUTES: optionalText.pipe(integerBetween(0, 1440, "分").optional()),
  /** Where snapshots go without STORAGE_URL (and where `npm run backup` writes). */
  BACKUP_DIR: folderPath.default("./backups"),
  /**
   * Kept: every snapshot of the last hours, the newest of each of the last days and months.
   * Unset, as the place suits (backups/scheduler.server.ts, retentionOf): a bucket 24 h, 30 days,
   * 12 months; the machine's own disk, which the database and media share, 6 h and 7 days.
   */
  BACKUP_KEEP_HOURS: optionalText.pipe(integerBetween(1, 24 * 14, "時間").optional()),
  BACKUP_KEEP_DAYS: optionalText.pipe(integerBetween(0, 3660, "日").optional()),
  BACKUP_KEEP_MONTHS: optionalText.pipe(integerBetween(0, 120, "か月").optional()),
});

/** The bucket the database's copies go to (see BACKUP_URL), or null: snapshots stay in BACKUP_DIR. */
export function backupStorage(settings: z.infer<typeof backupSettings> & z.infer<typeof storageSettings>) {
  if (!settings.BACKUP_URL) return objectStorage(settings);
  return objectStorage({
    ...settings,
    STORAGE_URL: settings.BACKUP_URL,
    S3_ENDPOINT: settings.BACKUP_S3_ENDPOINT ?? settings.S3_ENDPOINT,
    S3_REGION: settings.BACKUP_S3_REGION ?? settings.S3_REGION,
    S3_ACCESS_KEY_ID: settings.BACKUP_S3_ACCESS_KEY_ID ?? settings.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: settings.BACKUP_S3_SECRET_ACCESS_KEY ?? settings.S3_SECRET_ACCESS_KEY,
    S3_PUBLIC_BASE_URL: undefined,
  });
}
