import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { backupStatus } from "./backup-runs.server";
import { REPLICA_TIMING, replicaOf } from "./litestream.server";
import { replicaStatus } from "./replica-status.server";
import { retentionOf } from "./scheduler.server";
import { snapshotPlace } from "./snapshot-places.server";
import { retentionWords } from "./snapshot-retention.server";

/**
 * What needs the shop owner's attention, worst first; each is a reason the panel's word is not
 * 正常, and the panel says each in plain words with what to do:
 * - failing, late: the snapshots (below); replicaLate: the replica is behind or unreadable;
 * - off: no snapshots (BACKUP_INTERVAL_MINUTES=0);
 * - onMachine: the copies are on this machine only, lost with it (no bucket, so no replica);
 * - videosOnMachine: the videos are on this machine's disk only (they are in no backup).
 */
export type BackupConcern = "failing" | "late" | "replicaLate" | "off" | "onMachine" | "videosOnMachine";
const TROUBLE: readonly BackupConcern[] = ["failing", "late", "replicaLate"];

/**
 * The panel's one word, the worst of its concerns, so it never says 正常 beside a warning:
 * trouble (something is failing or behind: ask for help now), caution (safe from a failure of
 * this machine it is not), waiting (the first snapshot is still to come), safe.
 */
export type BackupStanding = "safe" | "waiting" | "caution" | "trouble";

/**
 * The back-office's view of backups (システム状態, and a warning on 概要 when in trouble). The
 * snapshots' own state:
 * - off: BACKUP_INTERVAL_MINUTES=0;
 * - failing: the last try failed (the reasons are listed);
 * - none: no snapshot yet and no failure (a new shop: the first comes a minute after start-up);
 * - late: no good snapshot for two intervals (the loop is not running: a stopped timer);
 * - ok.
 */
export type BackupOverview = {
  standing: BackupStanding;
  concerns: BackupConcern[];
  state: "off" | "none" | "ok" | "late" | "failing";
  intervalMinutes: number;
  where: string;
  offMachine: boolean;
  /** Which snapshots are kept, in words (retentionWords). */
  kept: string;
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
    /** How far back it can be restored to the second (Litestream's retention). */
    keptHours: number;
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
  const state = stateOf(config.BACKUP_INTERVAL_MINUTES * MINUTE_MS, lastGood?.finishedAt ?? null, failures);
  const replica = replicaOverview(config);
  return {
    ...backupStanding({ state, replica, offMachine: place.offMachine, videosInBucket: config.S3 !== null }),
    state,
    intervalMinutes: config.BACKUP_INTERVAL_MINUTES,
    where: place.where,
    offMachine: place.offMachine,
    kept: retentionWords(retentionOf(config, place)),
    lastGood: lastGood
      ? { at: lastGood.finishedAt.toISOString(), name: lastGood.name, bytes: lastGood.bytes }
      : null,
    failures,
    replica,
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

/** The concerns of what is found, worst first, and the one word they make (the worst of them). */
export function backupStanding(found: {
  state: BackupOverview["state"];
  replica: Pick<NonNullable<BackupOverview["replica"]>, "late"> | null;
  offMachine: boolean;
  videosInBucket: boolean;
}): Pick<BackupOverview, "standing" | "concerns"> {
  const { state, replica, offMachine, videosInBucket } = found;
  const concerns = [
    state === "failing" && "failing",
    state === "late" && "late",
    replica?.late === true && "replicaLate",
    state === "off" && "off",
    // With the snapshots off, that they would be on this machine is not the point.
    state !== "off" && !offMachine && replica === null && "onMachine",
    !videosInBucket && "videosOnMachine",
  ].filter((concern): concern is BackupConcern => concern !== false);
  return { standing: standingOf(state, concerns), concerns };
}

function standingOf(state: BackupOverview["state"], concerns: BackupConcern[]): BackupStanding {
  if (concerns.some((concern) => TROUBLE.includes(concern))) return "trouble";
  if (concerns.length > 0) return "caution";
  return state === "none" ? "waiting" : "safe";
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
    keptHours: Number.parseInt(REPLICA_TIMING.retention, 10),
  };
}
