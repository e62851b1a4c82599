import { eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.server";
import { deliveryFiles, orderLines, orders } from "../db/schema";
import { retireFile } from "./delivery-files.server";
import type { WaitingFile } from "./plan/files.server";

/**
 * Putting waiting files of the 納品ファイル tab to use inside one transaction, the one way both
 * 一括納品 and the order list's 納品 do it. Each file is used once per run: its match is recorded
 * on the file (a file put to use is known for sure from then on, so a later rename of the athlete
 * does not move it), and a corrected file takes over the lines of the delivered file it replaces,
 * whose downloads start afresh; the old file is retired and its orders marked changed (they are
 * not mailed unless the admin asks). `replaced` gathers those orders (id → order number).
 */
export function waitingFileUser(tx: Tx, at: Date) {
  const used = new Set<number>();
  const replaced = new Map<number, string>();
  const putToUse = (file: WaitingFile) => {
    if (file.match.kind !== "matched" || used.has(file.id)) return;
    used.add(file.id);
    const { athleteId, orientation } = file.match;
    tx.update(deliveryFiles).set({ athleteId, orientation }).where(eq(deliveryFiles.id, file.id)).run();
    if (!file.replaces) return;
    const moved = tx
      .update(orderLines)
      .set({ deliveryFileId: file.id, downloadStartedAt: null })
      .where(eq(orderLines.deliveryFileId, file.replaces.fileId))
      .returning({ orderId: orderLines.orderId })
      .all();
    retireFile(tx, file.replaces.fileId, at);
    const orderIds = [...new Set(moved.map((line) => line.orderId))];
    if (orderIds.length === 0) return;
    tx.update(orders).set({ deliveryChangedAt: at }).where(inArray(orders.id, orderIds)).run();
    for (const order of tx
      .select({ id: orders.id, orderNumber: orders.orderNumber })
      .from(orders)
      .where(inArray(orders.id, orderIds))
      .all())
      replaced.set(order.id, order.orderNumber);
  };
  return { putToUse, replaced };
}
