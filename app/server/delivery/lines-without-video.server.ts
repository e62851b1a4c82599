import { inArray } from "drizzle-orm";
import { db, type Tx } from "../db/client.server";
import { orderLines } from "../db/schema";
import { lineWithoutVideo, type WithoutVideo } from "~/lib/rules/lines-without-video";
import { refundedLinesOf } from "../refunds/order-refunds.server";

/**
 * Which order lines get no video, and why: a line marked お断り (the shop cannot make it), or a
 * line whose money is given back (lib/rules/refunds.ts, refundedLineIds; a whole order refunded
 * counts for every line). 納品, 一括納品, the order list and its counts, the 納品ファイル plan and
 * the delivery mail all ask here, so none waits for such a line and none sends a video for it.
 * Answers line id → why (lib/rules/lines-without-video.ts, lineWithoutVideo).
 */
export function linesWithoutVideo(
  orderIds: readonly number[],
  reader: Pick<Tx, "select"> = db(),
): Map<number, WithoutVideo> {
  const without = new Map<number, WithoutVideo>();
  if (orderIds.length === 0) return without;
  const refunded = refundedLinesOf(orderIds, reader);
  const lines = reader
    .select({ id: orderLines.id, refused: orderLines.refused })
    .from(orderLines)
    .where(inArray(orderLines.orderId, [...new Set(orderIds)]))
    .all();
  for (const line of lines) {
    const reason = lineWithoutVideo(line, refunded);
    if (reason) without.set(line.id, reason);
  }
  return without;
}
