import type { Env } from "../core/env.server";
import { snapshotPlace } from "./snapshot-places.server";

/**
 * What start-up says about backups, so the log of a deploy shows whether it is protected: how
 * often, where, and when that place would be lost with the machine's volume.
 */
export function backupNotice(config: Env): string {
  if (config.BACKUP_INTERVAL_MINUTES === 0)
    return "バックアップ: 自動スナップショットは無効です（BACKUP_INTERVAL_MINUTES=0）。npm run backup などで別に取ってください";
  const place = snapshotPlace(config);
  const every = `${config.BACKUP_INTERVAL_MINUTES} 分ごとにスナップショットを ${place.where} に保存します`;
  return place.offMachine
    ? `バックアップ: ${every}（直近 ${config.BACKUP_KEEP_HOURS} 時間はすべて、${config.BACKUP_KEEP_DAYS} 日間は1日1件、${config.BACKUP_KEEP_MONTHS} か月は1か月1件）`
    : `バックアップ: ${every}。このマシンのディスク上です: ボリュームを失うと一緒に失われます。STORAGE_URL を設定するとバケットに保存します`;
}
