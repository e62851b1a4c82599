import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { backupStatus } from "./backup-runs.server";
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
};

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
