import { count, eq, isNull, max, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { deliveryFiles, downloadPages, orderLines } from "../db/schema";
import { removeStoredFiles } from "../files/storage.server";
import { fileStore } from "../files/store.server";

/**
 * How long a delivered file outlives the last download page that offers it: the admin can
 * still extend a page for a customer who writes in a few days late (期限を7日延長).
 */
export const KEEP_AFTER_EXPIRY_MS = 14 * 24 * 3600_000;

/** A file the shop wrote for a delivery but never recorded (a crash, a refused 納品 form) is swept after this. */
const ORPHAN_AGE_MS = 60 * 60_000;

/**
 * Deletes the bytes of delivery files nobody needs any longer, keeping the row (so an old
 * download link says the video's time is over): a file that serves order lines goes once every
 * download page offering it has been expired for KEEP_AFTER_EXPIRY_MS; a file that serves none
 * goes once it is retired or its contest is deleted. A waiting file of a live contest stays
 * until the admin removes it; with `sweepLeftovers`, stored delivery files no row knows go too (it
 * lists the store). Returns how many files were deleted.
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
  return deleted + (sweepLeftovers ? await sweepOrphanedDeliveryFiles(at) : 0);
}

/** Stored files named like a delivery that no delivery file row knows, older than an hour. */
async function sweepOrphanedDeliveryFiles(at: Date): Promise<number> {
  const store = await fileStore();
  let known: Set<string> | null = null;
  let removed = 0;
  for await (const file of store.list("delivery-")) {
    known ??= new Set(
      db()
        .select({ storedName: deliveryFiles.storedName })
        .from(deliveryFiles)
        .all()
        .map((row) => row.storedName),
    );
    if (known.has(file.name) || file.modified.getTime() >= at.getTime() - ORPHAN_AGE_MS) continue;
    await store.remove(file.name);
    removed++;
  }
  return removed;
}
