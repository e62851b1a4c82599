import { describe, expect, it } from "vitest";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import {
  DEFAULT_RETENTION,
  ON_MACHINE_RETENTION,
  retentionWords,
  snapshotName,
  snapshotsToKeep,
  snapshotTime,
} from "~/server/backups/snapshot-retention.server";

const at = (iso: string) => ({ name: snapshotName(new Date(iso)), takenAt: new Date(iso) });

describe("snapshot retention", () => {
  it("names a snapshot after its time and reads the time back; other files are not snapshots", () => {
    const taken = new Date("2026-11-27T05:15:00.123Z");
    expect(snapshotName(taken)).toBe("shop-2026-11-27T05-15-00-123Z.db.gz");
    expect(snapshotTime(snapshotName(taken))).toEqual(taken);
    expect(snapshotTime("shop-2026-11-27T05-15-00-123Z.db")).toEqual(taken);
    for (const name of [
      "shop-2026-11-27T05-15-00-123Z.manifest.json",
      "notes.txt",
      "shop-2026-13-45T05-15-00-123Z.db.gz",
    ])
      expect(snapshotTime(name), name).toBeNull();
  });

  it("counts days in Japan time: 23:30 and 00:30 Tokyo are two days, the newest of each kept", () => {
    const now = new Date("2026-11-27T00:00:00.000Z");
    const snapshots = [
      at("2026-11-20T14:00:00.000Z"), // 11-20 23:00 Tokyo
      at("2026-11-20T14:40:00.000Z"), // 11-20 23:40 Tokyo: that day's newest
      at("2026-11-20T15:10:00.000Z"), // 11-21 00:10 Tokyo: the next day's only one
    ];
    expect(snapshotsToKeep(snapshots, now)).toEqual(new Set([snapshots[1]!.name, snapshots[2]!.name]));
  });

  it("keeps the newest of all however old, and one taken 'after now' (a clock set wrong once)", () => {
    const now = new Date("2026-11-27T00:00:00.000Z");
    const old = [at("2024-01-01T00:00:00.000Z"), at("2024-01-02T00:00:00.000Z")];
    expect(snapshotsToKeep(old, now)).toEqual(new Set([old[1]!.name]));
    const ahead = at("2026-12-01T00:00:00.000Z");
    expect(snapshotsToKeep([...old, ahead], now)).toEqual(new Set([ahead.name]));
  });

  it("pruned as they are taken, every 12 hours for 62 days, what is left is the last 24 hours, one a day for 30 days and one a month", () => {
    // The scheduler prunes after every snapshot: deleting as it goes must leave what the policy
    // keeps of all of them at the end (scheduler.server.ts deletes for good what it does not keep).
    const HOUR = 3600_000;
    const start = Date.parse("2027-01-01T00:00:00.000Z");
    const taken: { name: string; takenAt: Date }[] = [];
    let stored: { name: string; takenAt: Date }[] = [];
    for (let ms = start; ms <= start + 62 * 24 * HOUR; ms += 12 * HOUR) {
      const snapshot = { name: snapshotName(new Date(ms)), takenAt: new Date(ms) };
      taken.push(snapshot);
      const keep = snapshotsToKeep([...stored, snapshot], snapshot.takenAt);
      stored = [...stored, snapshot].filter((kept) => keep.has(kept.name));
    }
    const last = taken.at(-1)!.takenAt;
    expect(taken).toHaveLength(125);
    expect(new Set(stored.map((snapshot) => snapshot.name))).toEqual(snapshotsToKeep(taken, last));
    // Of 125: the last 24 hours (3, the one exactly a day old included), the newest of each of
    // the 28 Tokyo days before those, and January's last (February's is one of the 28).
    const keptDays = stored.map((snapshot) => tokyoDay(snapshot.takenAt));
    expect(keptDays.filter((day) => day < "2027-02-03")).toEqual(["2027-01-31"]);
    expect(stored).toHaveLength(3 + 28 + 1);
  });

  it("a policy of 0 days and 0 months keeps the last hours only", () => {
    const now = new Date("2026-11-27T12:00:00.000Z");
    const snapshots = [
      at("2026-11-27T11:00:00.000Z"),
      at("2026-11-27T09:00:00.000Z"),
      at("2026-11-26T09:00:00.000Z"),
    ];
    expect(snapshotsToKeep(snapshots, now, { hours: 6, days: 0, months: 0 })).toEqual(
      new Set([snapshots[0]!.name, snapshots[1]!.name]),
    );
  });

  it("says what it keeps in words, leaving out a part that keeps none", () => {
    expect(retentionWords(DEFAULT_RETENTION)).toBe(
      "直近 24 時間はすべて、30 日前までは 1 日 1 件、12 か月前までは 1 か月 1 件",
    );
    expect(retentionWords(ON_MACHINE_RETENTION)).toBe("直近 6 時間はすべて、7 日前までは 1 日 1 件");
    expect(retentionWords({ hours: 0, days: 0, months: 0 })).toBe("最新の 1 件だけ");
  });
});
