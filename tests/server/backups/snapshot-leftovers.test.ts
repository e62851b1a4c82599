import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sweepSnapshotLeftovers } from "~/server/backups/scheduler.server";
import { takeSnapshot } from "~/server/backups/snapshot.server";

describe("snapshots' leftovers and modes", () => {
  it("*snapshot killed mid-way*: at start-up the scheduler's work files and a dead process's scratch folder are removed, nothing else", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-"));
    const copy = path.join(folder, "shop-2026-11-29T05-00-00-000Z.db.gz.db.part");
    const packing = path.join(folder, "shop-2026-11-29T05-00-00-000Z.db.gz.part");
    const byHand = path.join(folder, "shop-2026-11-29T05-00-00-000Z.db.part");
    const kept = path.join(folder, "shop-2026-11-28T05-00-00-000Z.db.gz");
    for (const file of [copy, packing, byHand, kept]) fs.writeFileSync(file, "x".repeat(1024));
    // A process that has ended (kill -9 of a server in bucket mode) and one that is alive (this one).
    const ended = spawnSync("true").pid!;
    const deadScratch = path.join(os.tmpdir(), `shop-snapshots-${ended}`);
    const liveScratch = path.join(os.tmpdir(), `shop-snapshots-${process.pid}`);
    for (const scratch of [deadScratch, liveScratch]) {
      fs.mkdirSync(scratch, { recursive: true });
      fs.writeFileSync(path.join(scratch, "shop-x.db.gz.db.part"), "x");
    }
    try {
      const removed = sweepSnapshotLeftovers({ workFolder: folder });
      // (Another test's dead process may have left a scratch folder too: it goes as well.)
      expect(removed).toEqual(expect.arrayContaining([copy, packing, deadScratch]));
      expect(removed).not.toContain(liveScratch);
      expect(fs.readdirSync(folder).sort()).toEqual([path.basename(byHand), path.basename(kept)].sort());
      expect(fs.existsSync(liveScratch)).toBe(true);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(liveScratch, { recursive: true, force: true });
      fs.rmSync(deadScratch, { recursive: true, force: true });
    }
  });

  it("a snapshot is readable by the shop's user only (0600), in a folder it made 0700", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "modes-"));
    const database = path.join(work, "shop.db");
    new Database(database).exec("create table t (x); insert into t values (1)");
    const folder = path.join(work, "backups");
    try {
      const taken = await takeSnapshot({
        database,
        folder,
        name: "shop-2026-11-29T05-00-00-000Z.db.gz",
        takenAt: new Date(),
      });
      expect(fs.statSync(taken.file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
