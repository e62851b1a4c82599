import { HOUR_MS, tokyoDay } from "~/lib/rules/tokyo-date";

/**
 * Which snapshots of the database the shop keeps (scheduler.server.ts prunes the rest):
 * every one of the last `hours`, the newest of each of the last `days` days and of each of the
 * last `months` months (days and months as the shop counts them, in Japan time), and always the
 * newest of all, so a shop whose snapshots stopped keeps its last one however old.
 */
export type RetentionPolicy = { hours: number; days: number; months: number };

/** Snapshots kept off the machine (a bucket): the "every one of a day, a day each for a month, a month each for a year". */
export const DEFAULT_RETENTION: RetentionPolicy = { hours: 24, days: 30, months: 12 };
/** On the machine's own disk, shared with the database and media: about 31 snapshots, not 136. */
export const ON_MACHINE_RETENTION: RetentionPolicy = { hours: 6, days: 7, months: 0 };

/**
 * A policy as people say it, the same in the start-up log and on システム状態: 「直近 24 時間は
 * すべて、30 日前までは 1 日 1 件、12 か月前までは 1 か月 1 件」, a part that keeps none left out.
 */
export function retentionWords(policy: RetentionPolicy): string {
  const parts = [
    policy.hours > 0 ? `直近 ${policy.hours} 時間はすべて` : null,
    policy.days > 0 ? `${policy.days} 日前までは 1 日 1 件` : null,
    policy.months > 0 ? `${policy.months} か月前までは 1 か月 1 件` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join("、") : "最新の 1 件だけ";
}

export type Snapshot = { name: string; takenAt: Date };

/** shop-2026-11-27T05-15-00-000Z.db.gz: the time the snapshot was taken, in its name, so a listing is enough. */
const NAME = /^shop-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.db(\.gz)?$/;

export function snapshotName(takenAt: Date): string {
  return `shop-${takenAt.toISOString().replace(/[:.]/g, "-")}.db.gz`;
}

/** The time in a snapshot's name, or null for a file that is not one of the shop's snapshots. */
export function snapshotTime(name: string): Date | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, hours, minutes, seconds, millis] = match;
  const at = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The names to keep of `snapshots` at `now`; the others may be deleted. */
export function snapshotsToKeep(
  snapshots: Snapshot[],
  now: Date,
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Set<string> {
  const newestFirst = [...snapshots].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  const keep = new Set<string>();
  if (newestFirst[0]) keep.add(newestFirst[0].name);
  const recentFrom = now.getTime() - policy.hours * HOUR_MS;
  const today = tokyoDay(now);
  const days = new Set(lastPeriods(today, policy.days, "day"));
  const months = new Set(lastPeriods(today.slice(0, 7), policy.months, "month"));
  const dayTaken = new Set<string>();
  const monthTaken = new Set<string>();
  for (const snapshot of newestFirst) {
    const at = snapshot.takenAt.getTime();
    // Taken "later than now": a clock that was set wrong once. Not the shop's to judge: kept.
    if (at > now.getTime()) {
      keep.add(snapshot.name);
      continue;
    }
    const day = tokyoDay(at);
    const month = day.slice(0, 7);
    if (at >= recentFrom) keep.add(snapshot.name);
    if (days.has(day) && !dayTaken.has(day)) {
      dayTaken.add(day);
      keep.add(snapshot.name);
    }
    if (months.has(month) && !monthTaken.has(month)) {
      monthTaken.add(month);
      keep.add(snapshot.name);
    }
  }
  return keep;
}

/** `count` periods ending with `last` ("2026-11-27" days or "2026-11" months), newest first. */
function lastPeriods(last: string, count: number, unit: "day" | "month"): string[] {
  const periods: string[] = [];
  const [year, month, day] = last.split("-").map(Number) as [number, number, number];
  for (let i = 0; i < count; i++) {
    const at =
      unit === "day"
        ? new Date(Date.UTC(year, month - 1, day - i))
        : new Date(Date.UTC(year, month - 1 - i, 1));
    periods.push(at.toISOString().slice(0, unit === "day" ? 10 : 7));
  }
  return periods;
}
