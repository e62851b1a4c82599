import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatBytes } from "~/lib/rules/format";
import { HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env, type Env } from "../core/env.server";
import { remember } from "../core/remember.server";
import { lastGoodSnapshot, recordBackupRun } from "./backup-runs.server";
import { snapshotPlace, type SnapshotPlace } from "./snapshot-places.server";
import {
  DEFAULT_RETENTION,
  ON_MACHINE_RETENTION,
  snapshotName,
  snapshotsToKeep,
  type RetentionPolicy,
} from "./snapshot-retention.server";
import { takeSnapshot } from "./snapshot.server";

/** After a failed snapshot, the retries before the next scheduled one: 1 and 5 minutes later. */
export const RETRY_DELAYS_MS = [MINUTE_MS, 5 * MINUTE_MS];
/** The first snapshot of a shop that has none waits this long, so start-up is not slowed by it. */
const FIRST_SNAPSHOT_DELAY_MS = MINUTE_MS;

export type SnapshotOutcome =
  | { ok: true; name: string; bytes: number; seconds: number; pruned: number }
  | { ok: false; error: string };

/** BACKUP_KEEP_*, each unset one as the place suits (a bucket keeps more than the machine's disk). */
export function retentionOf(config: Env, place: SnapshotPlace): RetentionPolicy {
  const defaults = place.offMachine ? DEFAULT_RETENTION : ON_MACHINE_RETENTION;
  return {
    hours: config.BACKUP_KEEP_HOURS ?? defaults.hours,
    days: config.BACKUP_KEEP_DAYS ?? defaults.days,
    months: config.BACKUP_KEEP_MONTHS ?? defaults.months,
  };
}

/**
 * One snapshot, now: taken (snapshot.server.ts), kept where the shop keeps them, recorded in
 * backup_runs, then the snapshots past retention deleted. A failure is logged and recorded
 * (the back-office's システム状態 and /metrics show it), never thrown: the loop retries it.
 */
export async function takeScheduledSnapshot(attempt = 1): Promise<SnapshotOutcome> {
  const config = env();
  const place = snapshotPlace(config);
  const startedAt = now();
  const name = snapshotName(startedAt);
  try {
    const taken = await takeSnapshot({
      database: config.DATABASE_PATH,
      folder: place.workFolder,
      name,
      takenAt: startedAt,
    });
    await place.keep(taken.file, taken.manifest);
    recordBackupRun({ startedAt, status: "ok", name, bytes: taken.manifest.bytes, attempt });
    // The snapshot is kept whatever happens to the old ones: a failed deletion is tried again next time.
    const pruned = await pruneSnapshots(place, now(), retentionOf(config, place)).catch((error: unknown) => {
      console.error("[backups] 保存期間を過ぎたスナップショットを削除できませんでした", error);
      return 0;
    });
    console.log(
      `[backups] スナップショットを保存しました: ${place.where}${name}（${formatBytes(taken.manifest.bytes)}、${taken.seconds.toFixed(1)} 秒）${pruned > 0 ? `。保存期間を過ぎた ${pruned} 件を削除しました` : ""}`,
    );
    return { ok: true, name, bytes: taken.manifest.bytes, seconds: taken.seconds, pruned };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[backups] スナップショットに失敗しました（${attempt} 回目）: ${message}`);
    try {
      recordBackupRun({ startedAt, status: "failed", name: null, bytes: null, attempt, error: message });
    } catch (recordError) {
      // The database itself may be what failed; the log above is then the report.
      console.error("[backups] 失敗を記録できませんでした", recordError);
    }
    return { ok: false, error: message };
  }
}

/**
 * Deletes the scheduler's snapshots (gzipped) that the retention policy no longer keeps; those
 * of `npm run backup` (plain .db) are the admin's and stay. Leftovers of a snapshot cut off by a
 * crash (`.part`, an hour old) go too. Answers how many snapshots were deleted.
 */
export async function pruneSnapshots(place: SnapshotPlace, at: Date, policy: RetentionPolicy): Promise<number> {
  if (fs.existsSync(place.workFolder))
    for (const leftover of fs.readdirSync(place.workFolder).filter((name) => name.endsWith(".part"))) {
      const file = path.join(place.workFolder, leftover);
      // An hour old: not one being written now (`npm run backup` writes its .part in BACKUP_DIR too).
      if (fs.statSync(file).mtimeMs < at.getTime() - HOUR_MS) fs.rmSync(file, { force: true });
    }
  const scheduled = (await place.list()).filter((snapshot) => snapshot.name.endsWith(".gz"));
  const keep = snapshotsToKeep(scheduled, at, policy);
  let removed = 0;
  for (const snapshot of scheduled) {
    if (keep.has(snapshot.name)) continue;
    await place.remove(snapshot.name);
    removed++;
  }
  return removed;
}

/** A scheduled snapshot's work files: `<name>.db.gz.db.part` (the copy) and `<name>.db.gz.part` (packing). */
const SCHEDULED_PART = /^shop-.+\.db\.gz(\.db)?\.part$/;
/** The bucket place's scratch folder, per process (snapshot-places.server.ts). */
const SCRATCH_FOLDER = /^shop-snapshots-(\d+)$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * What a snapshot cut off by a kill left: a database-sized copy (210 MB in BACKUP_DIR for an hour,
 * or in the bucket mode's scratch folder for good). At start-up no snapshot of this shop is under
 * way, so the scheduler's own work files go at once (`npm run backup`'s are left to the hourly
 * sweep: one may be running), and so do the scratch folders of processes that are gone.
 * Answers what it removed.
 */
export function sweepSnapshotLeftovers(place: Pick<SnapshotPlace, "workFolder">): string[] {
  const removed: string[] = [];
  // A work folder that is no folder (gone, or a file where it should be) is the snapshot's to report.
  if (fs.statSync(place.workFolder, { throwIfNoEntry: false })?.isDirectory())
    for (const name of fs.readdirSync(place.workFolder).filter((entry) => SCHEDULED_PART.test(entry))) {
      fs.rmSync(path.join(place.workFolder, name), { force: true });
      removed.push(path.join(place.workFolder, name));
    }
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = SCRATCH_FOLDER.exec(name)?.[1];
    if (!pid || processAlive(Number(pid))) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    removed.push(path.join(os.tmpdir(), name));
  }
  return removed;
}

/** How long until the next snapshot: an interval after the last good one (a restart does not take one at once). */
export function nextSnapshotDelay(lastGoodAt: Date | null, at: Date, intervalMs: number): number {
  if (!lastGoodAt) return Math.min(FIRST_SNAPSHOT_DELAY_MS, intervalMs);
  // At most an interval: a last one "in the future" (a clock once ahead) does not put them off.
  return Math.min(intervalMs, Math.max(0, lastGoodAt.getTime() + intervalMs - at.getTime()));
}

// Remembered, so a dev-server reload reuses the loop; the timer is null once stopped (no snapshot after).
const backupLoop = remember("backupLoop", (): { timer?: NodeJS.Timeout | null } => ({}));

/**
 * Every BACKUP_INTERVAL_MINUTES (0: never): a snapshot, retried twice (RETRY_DELAYS_MS) when it
 * fails. `intervalMs` lets a test run the loop in milliseconds.
 */
export function startBackupLoop(intervalMs = env().BACKUP_INTERVAL_MINUTES * MINUTE_MS): void {
  if (backupLoop.timer) return;
  for (const leftover of sweepSnapshotLeftovers(snapshotPlace(env())))
    console.log(`[backup] 中断されたスナップショットの作業ファイルを削除しました: ${leftover}`);
  if (intervalMs <= 0) return;
  const schedule = (delay: number) => {
    const timer = setTimeout(() => void run(), delay);
    timer.unref();
    backupLoop.timer = timer;
  };
  const run = async () => {
    let outcome = await takeScheduledSnapshot(1);
    for (let retry = 0; !outcome.ok && retry < RETRY_DELAYS_MS.length; retry++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_DELAYS_MS[retry]!, intervalMs)).unref());
      if (backupLoop.timer === null) return;
      outcome = await takeScheduledSnapshot(retry + 2);
    }
    if (backupLoop.timer !== null) schedule(intervalMs);
  };
  schedule(nextSnapshotDelay(lastGoodSnapshot()?.finishedAt ?? null, now(), intervalMs));
}

/** Shutting down (or a test done with the loop): no snapshot is started after this. */
export function stopBackupLoop(): void {
  if (backupLoop.timer) clearTimeout(backupLoop.timer);
  backupLoop.timer = null;
}
