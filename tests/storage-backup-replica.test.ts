import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startBackupLoop, stopBackupLoop } from "~/server/backups/scheduler.server";
import { snapshotPlace } from "~/server/backups/snapshot-places.server";
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { forgetDatabaseRole } from "~/server/db/replica.server";
import { backupRuns } from "~/server/db/schema";

/**
 * Under LiteFS, as decision 0019 sets it up: the database in the mount folder, where replicas find
 * `.primary`, and the files in a bucket (which LiteFS requires: so in the s3 project only).
 */
const LITEFS = await vi.hoisted(async () => {
  // Before the imports above (which read the configuration), so with modules of its own.
  const [{ mkdtempSync }, { join }, { tmpdir }] = await Promise.all([
    import("node:fs"),
    import("node:path"),
    import("node:os"),
  ]);
  const folder = mkdtempSync(join(tmpdir(), "litefs-"));
  if (process.env.STORAGE_URL) {
    process.env.LITEFS_DIR = folder;
    process.env.DATABASE_PATH = join(folder, "shop.db");
  }
  return folder;
});

describe.skipIf(!process.env.STORAGE_URL)("scheduled snapshots under LiteFS", () => {
  it("are taken by the primary only: a replica's loop takes none until it is promoted", async () => {
    // Primary first (no .primary file), so the database is migrated as a replica finds it.
    db();
    fs.writeFileSync(path.join(LITEFS, ".primary"), "primary-machine-id");
    forgetDatabaseRole();
    startBackupLoop(100);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(db().select().from(backupRuns).all()).toEqual([]);
      expect(await snapshotPlace(env()).list()).toEqual([]);

      // Promoted: LiteFS removes the file, and the next turn of the loop takes one.
      fs.rmSync(path.join(LITEFS, ".primary"));
      forgetDatabaseRole();
      await expect
        .poll(() => db().select().from(backupRuns).all().length, { timeout: 10_000 })
        .toBeGreaterThan(0);
      expect(await snapshotPlace(env()).list()).toHaveLength(1);
    } finally {
      stopBackupLoop();
    }
  });
});
