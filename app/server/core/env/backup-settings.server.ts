import { z } from "zod";
import { flag, folderPath, integerBetween, optionalText } from "./values.server";

/** The snapshots the shop takes of its database itself (app/server/backups/). */
export const backupSettings = z.object({
  /**
   * Set by scripts/start.sh when this server runs under `litestream replicate` (decision 0041):
   * Litestream then does every checkpoint of the WAL (it must see every frame before the WAL is
   * reset), so the shop turns its own off, at start (autocheckpoint) and at the stop (TRUNCATE).
   */
  LITESTREAM_REPLICATES: flag(),
  /** Minutes between snapshots; 0 turns them off (a shop backed up some other way). */
  BACKUP_INTERVAL_MINUTES: integerBetween(0, 1440, "分").default(15),
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
