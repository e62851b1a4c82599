import { z } from "zod";
import { folderPath, integerBetween } from "./values.server";

/** The snapshots the shop takes of its database itself (app/server/backups/). */
export const backupSettings = z.object({
  /** Minutes between snapshots; 0 turns them off (a shop backed up some other way). */
  BACKUP_INTERVAL_MINUTES: integerBetween(0, 1440, "分").default(15),
  /** Where snapshots go without STORAGE_URL (and where `npm run backup` writes). */
  BACKUP_DIR: folderPath.default("./backups"),
  /** Kept: every snapshot of the last hours, the newest of each of the last days and months. */
  BACKUP_KEEP_HOURS: integerBetween(1, 24 * 14, "時間").default(24),
  BACKUP_KEEP_DAYS: integerBetween(0, 3660, "日").default(30),
  BACKUP_KEEP_MONTHS: integerBetween(0, 120, "か月").default(12),
});
