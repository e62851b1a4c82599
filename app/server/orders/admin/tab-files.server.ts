import { and, eq, inArray, isNull } from "drizzle-orm";
import { db } from "../../db/client.server";
import { deliveryFiles, orderLines, orders } from "../../db/schema";
import { deliveryPlan } from "../../delivery/delivery-plan.server";
import { matchKey } from "../../delivery/file-names.server";

/**
 * The 納品ファイル tab's file for each line of these orders: the one its contest's plan has for
 * the line's athlete and style (line id → the file's name), so the order list's 納品 offers the
 * video uploaded there instead of asking for it again. deliverOrder reads the same plan when the
 * form leaves a line without a URL or video. Only contests with files in the tab are planned.
 */
export function tabFilesOf(orderIds: readonly number[]): Record<number, string> {
  const files: Record<number, string> = {};
  if (orderIds.length === 0) return files;
  const lines = db()
    .select({
      id: orderLines.id,
      athleteId: orderLines.athleteId,
      orientation: orderLines.orientation,
      contestId: orders.contestId,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(inArray(orderLines.orderId, [...orderIds]), eq(orderLines.status, "未対応")))
    .all();
  const contestIds = [...new Set(lines.flatMap((line) => (line.contestId ? [line.contestId] : [])))];
  if (contestIds.length === 0) return files;
  const withFiles = db()
    .selectDistinct({ contestId: deliveryFiles.contestId })
    .from(deliveryFiles)
    .where(and(inArray(deliveryFiles.contestId, contestIds), isNull(deliveryFiles.retiredAt)))
    .all();
  for (const { contestId } of withFiles) {
    const plan = contestId ? deliveryPlan(contestId) : null;
    if (!plan) continue;
    const names = new Map(
      [...plan.waiting, ...plan.delivered].map((file) => [file.id, file.originalName] as const),
    );
    for (const line of lines) {
      if (line.contestId !== contestId || line.athleteId === null) continue;
      const name = names.get(plan.fileForKey.get(matchKey(line.athleteId, line.orientation)) ?? 0);
      if (name !== undefined) files[line.id] = name;
    }
  }
  return files;
}
