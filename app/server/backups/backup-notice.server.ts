import { formatInterval } from "~/lib/rules/format";
import type { Env } from "../core/env.server";
import { replicaOf } from "./litestream.server";
import { retentionOf } from "./scheduler.server";
import { snapshotPlace } from "./snapshot-places.server";
import { retentionWords } from "./snapshot-retention.server";

/**
 * What start-up says about backups, so the log of a deploy shows whether it is protected: how
 * often, where, and when that place would be lost with the machine's volume. The interval and
 * what is kept are said as システム状態 says them (formatInterval, retentionWords).
 */
export function backupNotice(config: Env): string {
  const snapshots = snapshotNotice(config);
  if (!config.LITESTREAM_REPLICATES || !config.BACKUP_S3) return snapshots;
  const replica = replicaOf(config.BACKUP_S3);
  return `常時複製: Litestream が書き込みを 1 秒ごとに s3://${replica.bucket}/${replica.path} に複製しています。${snapshots}`;
}

function snapshotNotice(config: Env): string {
  if (config.BACKUP_INTERVAL_MINUTES === 0)
    return "バックアップ: 自動スナップショットは無効です（BACKUP_INTERVAL_MINUTES=0）。npm run backup などで別に取ってください";
  const place = snapshotPlace(config);
  const every = `${formatInterval(config.BACKUP_INTERVAL_MINUTES)}ごとにスナップショットを ${place.where} に保存します`;
  const kept = `${retentionWords(retentionOf(config, place))}を残します`;
  return place.offMachine
    ? `バックアップ: ${every}（${kept}）`
    : `バックアップ: ${every}（${kept}）。このマシンのディスク上です: ボリュームを失うと一緒に失われます。BACKUP_URL か STORAGE_URL を設定すると、バケットに常時複製し、スナップショットもそこに保存します`;
}
