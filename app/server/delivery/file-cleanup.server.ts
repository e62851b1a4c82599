import { and, count, eq, isNotNull, isNull, max, or, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { deliveryFiles, downloadPages, mediaItems, orderLines } from "../db/schema";
import { removeStoredFiles } from "../files/storage.server";
import { fileStore } from "../files/store.server";
import { DAY_MS, HOUR_MS } from "~/lib/rules/tokyo-date";

/**
 * How long a delivered file outlives the last download page that offers it: the admin can
 * still extend a page for a customer who writes in a few days late (期限を7日延長).
 */
export const KEEP_AFTER_EXPIRY_MS = 14 * DAY_MS;

/** A file the shop wrote for a delivery but never recorded (a crash, a refused 納品 form) is swept after this. */
const ORPHAN_AGE_MS = HOUR_MS;

/**
 * Deletes the bytes of delivery files nobody needs any longer, keeping the row (so an old
 * download link says the video's time is over): a file that serves order lines goes once every
 * download page offering it has been expired for KEEP_AFTER_EXPIRY_MS; a file that serves none
 * goes once it is retired or its contest is deleted. A waiting file of a live contest stays
 * until the admin removes it. Its poster and phone version go with it, and so do those a media job
 * stored for a file already deleted (versions.server.ts `record`). With `sweepLeftovers`, stored
 * delivery files, posters and phone versions no row knows go too (it lists the store). Returns how
 * many delivered files (and leftovers) were deleted.
 */
export async function deleteUnneededDeliveryFiles({ sweepLeftovers = true } = {}): Promise<number> {
  const at = now();
  const rows = db()
    .select({
      id: deliveryFiles.id,
      storedName: deliveryFiles.storedName,
      contestId: deliveryFiles.contestId,
      retiredAt: deliveryFiles.retiredAt,
      lines: count(orderLines.id),
      // A line whose order has no page yet keeps the file, as if its page never expired.
      linesWithoutPage: sql<number>`sum(case when ${orderLines.id} is not null and ${downloadPages.id} is null then 1 else 0 end)`,
      lastExpiry: max(downloadPages.expiresAt),
    })
    .from(deliveryFiles)
    .leftJoin(orderLines, eq(orderLines.deliveryFileId, deliveryFiles.id))
    .leftJoin(downloadPages, eq(downloadPages.orderId, orderLines.orderId))
    .where(isNull(deliveryFiles.deletedAt))
    .groupBy(deliveryFiles.id)
    .all();
  let deleted = 0;
  for (const row of rows) {
    const unneeded =
      row.lines === 0
        ? row.retiredAt !== null || row.contestId === null
        : Number(row.linesWithoutPage) === 0 &&
          row.lastExpiry !== null &&
          row.lastExpiry.getTime() + KEEP_AFTER_EXPIRY_MS < at.getTime();
    if (!unneeded) continue;
    await removeStoredFiles(row.storedName);
    db()
      .update(deliveryFiles)
      .set({ deletedAt: at, retiredAt: row.retiredAt ?? at })
      .where(eq(deliveryFiles.id, row.id))
      .run();
    deleted++;
  }
  await removeVersionsOfDeletedFiles();
  return deleted + (sweepLeftovers ? await sweepOrphanedDeliveryFiles(at) : 0);
}

/**
 * The poster and phone version of every deleted file: those of the files deleted just now, and
 * any a media job recorded after its file was deleted (it read the file before). Each name is
 * cleared only if it is still the one removed, so a version recorded meanwhile stays listed for
 * the next run rather than lost.
 */
async function removeVersionsOfDeletedFiles(): Promise<void> {
  const rows = db()
    .select({
      id: deliveryFiles.id,
      posterStoredName: deliveryFiles.posterStoredName,
      phoneStoredName: deliveryFiles.phoneStoredName,
    })
    .from(deliveryFiles)
    .where(
      and(
        isNotNull(deliveryFiles.deletedAt),
        or(isNotNull(deliveryFiles.posterStoredName), isNotNull(deliveryFiles.phoneStoredName)),
      ),
    )
    .all();
  for (const row of rows) {
    await removeStoredFiles(row.posterStoredName, row.phoneStoredName);
    if (row.posterStoredName)
      db()
        .update(deliveryFiles)
        .set({ posterStoredName: null })
        .where(and(eq(deliveryFiles.id, row.id), eq(deliveryFiles.posterStoredName, row.posterStoredName)))
        .run();
    if (row.phoneStoredName)
      db()
        .update(deliveryFiles)
        .set({ phoneStoredName: null, phoneSize: null, phoneVideo: null })
        .where(and(eq(deliveryFiles.id, row.id), eq(deliveryFiles.phoneStoredName, row.phoneStoredName)))
        .run();
  }
}

/**
 * The names each prefix of a delivery's stored files is known by: the file itself, and what the
 * media jobs made of it (posters are made for a contest's samples too, so theirs count).
 */
const LEFTOVER_PREFIXES: Record<string, () => (string | null)[]> = {
  "delivery-": () =>
    db()
      .select({ name: deliveryFiles.storedName })
      .from(deliveryFiles)
      .all()
      .map((row) => row.name),
  "poster-": () => [
    ...db()
      .select({ name: deliveryFiles.posterStoredName })
      .from(deliveryFiles)
      .where(isNotNull(deliveryFiles.posterStoredName))
      .all()
      .map((row) => row.name),
    ...db()
      .select({ name: mediaItems.posterStoredName })
      .from(mediaItems)
      .where(isNotNull(mediaItems.posterStoredName))
      .all()
      .map((row) => row.name),
  ],
  "phone-": () =>
    db()
      .select({ name: deliveryFiles.phoneStoredName })
      .from(deliveryFiles)
      .where(isNotNull(deliveryFiles.phoneStoredName))
      .all()
      .map((row) => row.name),
};

/**
 * Stored files named like a delivery, a poster or a phone version that no row knows, older than
 * an hour (a job between storing its output and recording it, an upload being finished, are younger).
 */
async function sweepOrphanedDeliveryFiles(at: Date): Promise<number> {
  const store = await fileStore();
  let removed = 0;
  for (const [prefix, knownNames] of Object.entries(LEFTOVER_PREFIXES)) {
    let known: Set<string | null> | null = null;
    for await (const file of store.list(prefix)) {
      known ??= new Set(knownNames());
      if (known.has(file.name) || file.modified.getTime() >= at.getTime() - ORPHAN_AGE_MS) continue;
      await store.remove(file.name);
      removed++;
    }
  }
  return removed;
}
