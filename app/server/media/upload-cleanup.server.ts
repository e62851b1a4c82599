import fsp from "node:fs/promises";
import path from "node:path";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { mediaUploads } from "../db/schema";
import { fileStore } from "../files/store.server";
import { dropUpload, isFresh } from "./upload-rows.server";
import { HOUR_MS } from "~/lib/rules/tokyo-date";

/** Scratch files and store uploads no row owns (left by a crash) go after this. */
const ORPHAN_AGE_MS = HOUR_MS;

/**
 * Removes uploads nobody has added to for 24 hours (S3: aborts their multipart uploads), store
 * uploads no row owns (`sweepLeftovers`: it lists the store) and scratch files older than an hour
 * (left by a crash). Run by the hourly clean-up (app/server/startup.server.ts).
 */
export async function cleanupStaleUploads({ sweepLeftovers = true } = {}): Promise<number> {
  const at = now().getTime();
  let removed = await dropAbandonedUploads(at);
  if (sweepLeftovers) removed += await abortOrphanedStoreUploads(at);
  return removed + (await removeOldScratchFiles(at));
}

async function dropAbandonedUploads(at: number): Promise<number> {
  let removed = 0;
  for (const row of db().select().from(mediaUploads).all()) {
    if (isFresh(row, at)) continue;
    await dropUpload(row);
    removed++;
  }
  return removed;
}

/** Store uploads (S3 multipart uploads, local part files) that no upload row names. */
async function abortOrphanedStoreUploads(at: number): Promise<number> {
  const store = await fileStore();
  const live = new Set(
    db()
      .select({ storeUploadId: mediaUploads.storeUploadId })
      .from(mediaUploads)
      .all()
      .map((row) => row.storeUploadId),
  );
  let removed = 0;
  for await (const upload of store.chunks.list()) {
    if (live.has(upload.storeUploadId) || upload.startedAt.getTime() >= at - ORPHAN_AGE_MS) continue;
    await store.chunks.abort(upload);
    removed++;
  }
  return removed;
}

async function removeOldScratchFiles(at: number): Promise<number> {
  const dir = (await fileStore()).scratchDir();
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    // Local part files are the store's own, handled above.
    if (name.endsWith(".part")) continue;
    const file = path.join(dir, name);
    try {
      if ((await fsp.stat(file)).mtimeMs < at - ORPHAN_AGE_MS) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    } catch {
      // already gone
    }
  }
  return removed;
}
