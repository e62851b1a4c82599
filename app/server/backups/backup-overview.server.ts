import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { backupStatus } from "./backup-runs.server";
import { replicaOf } from "./litestream.server";
import { replicaStatus } from "./replica-status.server";
import { snapshotPlace } from "./snapshot-places.server";

/**
 * The back-office's view of backups (システム状態, and a warning on 概要 when not 正常):
 * - off: BACKUP_INTERVAL_MINUTES=0;
 * - failing: the last try failed (the reasons are listed);
 * - none: no snapshot yet and no failure (a new shop: the first comes a minute after start-up);
 * - late: no good snapshot for two intervals (the loop is not running: a stopped timer);
 * - ok.
 */
export type BackupOverview = {
  state: "off" | "none" | "ok" | "late" | "failing";
  intervalMinutes: number;
  where: string;
  offMachine: boolean;
  lastGood: { at: string; name: string | null; bytes: number | null } | null;
  failures: number;
  recentFailures: { at: string; attempt: number; error: string }[];
  /**
   * The Litestream replica (decision 0041): null when the server does not run under it (no backup
   * bucket, or not started by scripts/start.sh), so a lost volume loses what came after the last
   * snapshot.
   */
  replica: {
    where: string;
    reachable: boolean;
    lagSeconds: number;
    lastSyncAt: string | null;
    syncErrors: number;
    /** Behind by REPLICA_LATE_SECONDS or more, or Litestream's numbers unreadable: worth a look. */
    late: boolean;
  } | null;
  /** Where the videos are: in a bucket (outliving the machine), or on this machine's disk only. */
  videos: { where: string; inBucket: boolean };
};

/** A replica this far behind is worth the admin's look (Litestream syncs every second). */
const REPLICA_LATE_SECONDS = 5 * 60;

export function backupOverview(): BackupOverview {
  const config = env();
  const place = snapshotPlace(config);
  const { lastGood, failures, recentFailures } = backupStatus();
  return {
    state: stateOf(config.BACKUP_INTERVAL_MINUTES * MINUTE_MS, lastGood?.finishedAt ?? null, failures),
    intervalMinutes: config.BACKUP_INTERVAL_MINUTES,
    where: place.where,
    offMachine: place.offMachine,
    lastGood: lastGood
      ? { at: lastGood.finishedAt.toISOString(), name: lastGood.name, bytes: lastGood.bytes }
      : null,
    failures,
    replica: replicaOverview(config),
    videos: config.S3
      ? { where: `s3://${config.S3.bucket}/${config.S3.prefix}`, inBucket: true }
      : { where: config.MEDIA_DIR, inBucket: false },
    recentFailures: recentFailures.map((run) => ({
      at: run.finishedAt.toISOString(),
      attempt: run.attempt,
      error: run.error ?? "",
    })),
  };
}

function stateOf(intervalMs: number, lastGoodAt: Date | null, failures: number): BackupOverview["state"] {
  if (intervalMs === 0) return "off";
  if (failures > 0) return "failing";
  if (!lastGoodAt) return "none";
  return now().getTime() - lastGoodAt.getTime() > 2 * intervalMs + MINUTE_MS ? "late" : "ok";
}

function replicaOverview(config: ReturnType<typeof env>): BackupOverview["replica"] {
  const status = replicaStatus();
  if (!status.replicating || !config.BACKUP_S3) return null;
  const replica = replicaOf(config.BACKUP_S3);
  return {
    where: `s3://${replica.bucket}/${replica.path}`,
    reachable: status.reachable,
    lagSeconds: Math.round(status.lagSeconds),
    lastSyncAt: status.lastSyncAt?.toISOString() ?? null,
    syncErrors: status.syncErrors,
    late: !status.reachable || status.lagSeconds >= REPLICA_LATE_SECONDS,
  };
}
