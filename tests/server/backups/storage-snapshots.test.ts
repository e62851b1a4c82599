import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { loader as metricsLoader } from "~/routes/system/metrics";
import { snapshotName, snapshotsToKeep, type Snapshot } from "~/server/backups/snapshot-retention.server";
import { backupOverview } from "~/server/backups/backup-overview.server";
import {
  RETRY_DELAYS_MS,
  startBackupLoop,
  stopBackupLoop,
  takeScheduledSnapshot,
} from "~/server/backups/scheduler.server";
import { manifestName, snapshotPlace } from "~/server/backups/snapshot-places.server";
import { fetchSnapshot } from "~/server/backups/snapshot-source.server";
import { setClock } from "~/server/core/clock.server";
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { gte } from "drizzle-orm";
import { backupRuns, contests } from "~/server/db/schema";
import { backupDatabase } from "../../../scripts/backup-lib";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text";

/**
 * The shop's own snapshots (app/server/backups), run on the test clock: taken, kept with their
 * manifest where the shop keeps them (BACKUP_DIR here; the bucket's backups/ in the s3 project),
 * pruned by retention, and a failure retried and reported where the admin and the platform look.
 */
// The same retention in the folder and in the bucket (unset, the folder keeps less: retentionOf).
vi.hoisted(() =>
  Object.assign(process.env, { BACKUP_KEEP_HOURS: "24", BACKUP_KEEP_DAYS: "30", BACKUP_KEEP_MONTHS: "12" }),
);
const place = () => snapshotPlace(env());
const HOUR = 3600_000;

async function gauges() {
  const request = new Request("http://localhost/metrics", {
    headers: { "X-Shop-Client-Address": "127.0.0.1" },
  });
  const response = await metricsLoader({ request, params: {}, context: {} });
  const parsed = parsePrometheusText(await response.text());
  return {
    age: sampleValue(parsed, "shop_backup_last_success_age_seconds"),
    failures: sampleValue(parsed, "shop_backup_failures_since_last_success"),
    bytes: sampleValue(parsed, "shop_backup_last_success_bytes"),
  };
}

/** Makes the next snapshots fail as a full or broken disk would: their work folder cannot be made. */
function breakWorkFolder(): () => void {
  const folder = place().workFolder;
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  fs.writeFileSync(folder, "not a folder");
  return () => {
    if (fs.statSync(folder, { throwIfNoEntry: false })?.isFile()) fs.rmSync(folder);
  };
}

describe("scheduled snapshots", () => {
  it("takes a snapshot of the database as it is, named and kept with its manifest, and records it", async () => {
    db().insert(contests).values({ name: "春の発表会", slugKey: "haru" }).run();
    const at = new Date("2026-11-27T05:15:00.000Z");
    setClock(() => at.getTime());
    expect((await gauges()).age).toBe(Infinity);

    // What a snapshot cut off by a crash left (an hour old), and one being written now by another.
    fs.mkdirSync(place().workFolder, { recursive: true });
    const leftover = path.join(place().workFolder, "shop-2026-11-27T03-00-00-000Z.db.gz.db.part");
    const writing = path.join(place().workFolder, "shop-2026-11-27T05-14-59-000Z.db.part");
    for (const file of [leftover, writing]) fs.writeFileSync(file, "partial");
    fs.utimesSync(leftover, new Date(at.getTime() - 2 * HOUR), new Date(at.getTime() - 2 * HOUR));

    const outcome = await takeScheduledSnapshot();
    expect(outcome).toMatchObject({ ok: true, name: "shop-2026-11-27T05-15-00-000Z.db.gz" });
    expect([fs.existsSync(leftover), fs.existsSync(writing)]).toEqual([false, true]);
    fs.rmSync(writing);
    const kept = await place().list();
    expect(kept.map((snapshot) => snapshot.name)).toEqual(["shop-2026-11-27T05-15-00-000Z.db.gz"]);

    // What was kept is the database of that moment: fetched back, unpacked and opened.
    const fetched = await fetchSnapshot("latest", place());
    try {
      expect(fetched.takenAt).toEqual(at);
      expect(fetched.manifest).toMatchObject({ integrity: "ok", tables: { contests: 1 } });
      const copy = new Database(fetched.databaseFile, { readonly: true });
      expect(copy.prepare("select name from contests").all()).toEqual([{ name: "春の発表会" }]);
      copy.close();
    } finally {
      fetched.discard();
    }
    expect(db().select().from(backupRuns).all()).toMatchObject([{ status: "ok", attempt: 1 }]);

    setClock(() => at.getTime() + 10 * 60_000);
    expect(await gauges()).toMatchObject({ age: 600, failures: 0 });
    expect((await gauges()).bytes).toBeGreaterThan(0);
    expect(backupOverview()).toMatchObject({ state: "ok", failures: 0, intervalMinutes: 15 });
  });

  it("a snapshot taken prunes what the BACKUP_KEEP_* retention no longer keeps, where the shop keeps them", async () => {
    // 62 days of snapshots every 12 hours, stood in by small files kept the scheduler's way (the
    // retention rule itself, pruned as it goes, is tests/server/backups/snapshot-retention.test.ts);
    // then one real snapshot 12 hours after the last, whose pruning must leave what the policy keeps.
    const start = Date.parse("2027-01-01T00:00:00.000Z");
    const taken: Snapshot[] = [];
    fs.mkdirSync(place().workFolder, { recursive: true });
    for (let at = start; at < start + 62 * 24 * HOUR; at += 12 * HOUR) {
      const name = snapshotName(new Date(at));
      const file = path.join(place().workFolder, name);
      fs.writeFileSync(file, "a stand-in snapshot");
      await place().keep(file, {
        takenAt: new Date(at).toISOString(),
        name,
        bytes: 19,
        databaseBytes: 19,
        integrity: "ok",
        tables: {},
        migration: null,
      });
      taken.push({ name, takenAt: new Date(at) });
    }
    const last = new Date(start + 62 * 24 * HOUR);
    setClock(() => last.getTime());
    const outcome = await takeScheduledSnapshot();
    if (!outcome.ok) throw new Error(outcome.error);
    taken.push({ name: outcome.name, takenAt: last });
    expect(outcome.pruned).toBe(125 - 32);

    const kept = (await place().list()).filter((snapshot) => snapshot.takenAt.getTime() >= start);
    // The bucket's default and the folder's (retentionOf) both keep fewer: BACKUP_KEEP_* is what was read.
    expect(new Set(kept.map((snapshot) => snapshot.name))).toEqual(snapshotsToKeep(taken, last));
    expect(kept).toHaveLength(3 + 28 + 1);
    expect(kept.at(-1)!.name).toBe(outcome.name);
    // A pruned snapshot's manifest goes with it: those left are the kept snapshots' alone.
    if (!process.env.STORAGE_URL) {
      const manifests = fs
        .readdirSync(place().workFolder)
        .filter((name) => name.endsWith(".manifest.json") && name >= "shop-2027");
      expect(new Set(manifests)).toEqual(new Set(kept.map((snapshot) => manifestName(snapshot.name))));
    }
  });

  it("a failed snapshot is recorded with its reason, shown to the admin and the platform, and the next good one clears it", async () => {
    const at = Date.parse("2027-06-01T00:00:00.000Z");
    setClock(() => at);
    const repair = breakWorkFolder();
    try {
      const outcome = await takeScheduledSnapshot(1);
      expect(outcome.ok).toBe(false);
      const overview = backupOverview();
      expect(overview.state).toBe("failing");
      expect(overview.failures).toBe(1);
      expect(overview.recentFailures[0]!.error).toMatch(/EEXIST|ENOTDIR/);
      expect((await gauges()).failures).toBe(1);
    } finally {
      repair();
    }
    setClock(() => at + 60_000);
    expect((await takeScheduledSnapshot(2)).ok).toBe(true);
    expect(backupOverview()).toMatchObject({ state: "ok", failures: 0 });
    expect((await gauges()).failures).toBe(0);
  });

  it("the loop takes snapshots an interval apart and retries a failure before the next one", async () => {
    // A clock that runs, after every snapshot the tests above took.
    const offset = Date.parse("2028-01-01T00:00:00.000Z") - Date.now();
    setClock(() => Date.now() + offset);
    // Tries of the loop: rows after those of the tests above (which its 90-day pruning deletes).
    const firstId = (db().select().from(backupRuns).all().at(-1)?.id ?? 0) + 1;
    const tries = () =>
      db()
        .select()
        .from(backupRuns)
        .where(gte(backupRuns.id, firstId))
        .orderBy(backupRuns.id)
        .all()
        .map((run) => [run.status, run.attempt]);
    const repair = breakWorkFolder();
    // An interval of 300 ms: the retries wait at most the interval (RETRY_DELAYS_MS are minutes).
    expect(RETRY_DELAYS_MS.length).toBe(2);
    startBackupLoop(300);
    try {
      await expect.poll(() => tries().length, { timeout: 10_000 }).toBe(3);
      expect(tries()).toEqual([
        ["failed", 1],
        ["failed", 2],
        ["failed", 3],
      ]);
      repair();
      await expect.poll(() => tries().slice(3), { timeout: 10_000 }).toContainEqual(["ok", 1]);
    } finally {
      stopBackupLoop();
      repair();
    }
    const settled = tries().length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Stopped: at most the snapshot that was under way is recorded after.
    expect(tries().length - settled).toBeLessThanOrEqual(1);
  });

  // `npm run backup` writes its copy on this machine; with the bucket, the shop's snapshots are
  // there and `--latest` reads only them, so the copy is restored by its path (as --help says).
  it("--latest passes over a snapshot dated ahead of the clock and takes npm run backup's copy: the newest in the folder, by its path with the bucket", async () => {
    const manual = new Date("2030-01-10T03:00:00.000Z");
    // A scheduled one an hour before the copy: the newest the bucket holds.
    setClock(() => manual.getTime() - HOUR);
    expect((await takeScheduledSnapshot()).ok).toBe(true);
    setClock(() => manual.getTime());
    const { databaseFile: manualCopy } = backupDatabase({
      databasePath: env().DATABASE_PATH,
      mediaDir: env().MEDIA_DIR,
      backupDir: env().BACKUP_DIR,
      now: manual,
    });
    // A scheduled one "the next day": taken while the clock was ahead (a day, so that its
    // retention still keeps the one before).
    setClock(() => Date.parse("2030-01-11T00:00:00.000Z"));
    expect((await takeScheduledSnapshot()).ok).toBe(true);
    setClock(() => manual.getTime() + HOUR);

    const latest = await fetchSnapshot("latest", place());
    const byPath = await fetchSnapshot(manualCopy, place());
    try {
      if (process.env.STORAGE_URL) {
        expect(latest.source).toMatch(/shop-2030-01-10T02-00-00-000Z\.db\.gz$/);
        expect(latest.manifest).not.toBeNull();
      } else expect(latest.source).toMatch(/shop-2030-01-10T03-00-00-000Z\.db$/);
      expect(byPath.source).toBe(path.resolve(manualCopy));
      expect(byPath.takenAt).toEqual(manual);
      expect(byPath.manifest).toBeNull();
      for (const fetched of [latest, byPath]) {
        const copy = new Database(fetched.databaseFile, { readonly: true });
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        copy.close();
      }
    } finally {
      latest.discard();
      byPath.discard();
    }
  });
});
