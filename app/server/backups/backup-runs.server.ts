import { and, count, desc, eq, gt, lt } from "drizzle-orm";
import { DAY_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { backupRuns, BACKUP_RUN_STATUSES } from "../db/schema";

/** Tries are kept this long: enough for the back-office to show a bad week, not a table that grows forever. */
const RUNS_KEPT_MS = 90 * DAY_MS;

export type BackupRun = typeof backupRuns.$inferSelect;

export function recordBackupRun(run: {
  startedAt: Date;
  status: (typeof BACKUP_RUN_STATUSES)[number];
  name: string | null;
  bytes: number | null;
  attempt: number;
  error?: string;
}): void {
  const at = now();
  db().transaction((tx) => {
    tx.insert(backupRuns)
      .values({ ...run, error: run.error ?? null, finishedAt: at })
      .run();
    tx.delete(backupRuns)
      .where(lt(backupRuns.finishedAt, new Date(at.getTime() - RUNS_KEPT_MS)))
      .run();
  });
}

export function lastGoodSnapshot(): BackupRun | undefined {
  return db()
    .select()
    .from(backupRuns)
    .where(eq(backupRuns.status, "ok"))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1)
    .get();
}

/**
 * What the back-office and /metrics say about backups: the last good snapshot, how many tries
 * failed since it, and the latest of those with their reasons (newest first).
 */
export function backupStatus(): { lastGood: BackupRun | null; failures: number; recentFailures: BackupRun[] } {
  const lastGood = lastGoodSnapshot() ?? null;
  const since = and(
    eq(backupRuns.status, "failed"),
    lastGood ? gt(backupRuns.finishedAt, lastGood.finishedAt) : undefined,
  );
  const failures = db().select({ n: count() }).from(backupRuns).where(since).get()?.n ?? 0;
  const recentFailures =
    failures === 0
      ? []
      : db().select().from(backupRuns).where(since).orderBy(desc(backupRuns.finishedAt)).limit(5).all();
  return { lastGood, failures, recentFailures };
}
