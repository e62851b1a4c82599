/**
 * What the 納品ファイル plan reads from the database: the contest and its styles, the open order
 * lines, the athletes, the pool of files with how many lines each serves, and the delivered
 * orders whose file changed since their mail. Each read takes the caller's reader, so 一括納品
 * reads inside its own transaction.
 */
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { ORDER_TABS } from "~/lib/rules/order-tabs";
import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import type { Tx } from "../../db/client.server";
import { athletes, contests, deliveryFiles, orderLines, orders } from "../../db/schema";
import { pricedFormats } from "../../catalog/pricing.server";
import type { DeliveryStyle } from "../file-names/styles.server";
import { linesWithoutVideo } from "../lines-without-video.server";

export type Reader = Pick<Tx, "select" | "selectDistinct">;

/** The contest's number label and the styles it sells, in the price rule's order. */
export function planContest(reader: Reader, contestId: number) {
  const contest = reader
    .select({ id: contests.id, bibNumberLabel: contests.bibNumberLabel })
    .from(contests)
    .where(eq(contests.id, contestId))
    .get();
  if (!contest) return null;
  const styles: DeliveryStyle[] = pricedFormats(contestId, reader).map(({ name, orientation }) => ({
    name,
    orientation,
  }));
  const styleName = (orientation: Orientation) =>
    styles.find((style) => style.orientation === orientation)?.name ?? ORIENTATION_LABELS[orientation];
  return { numberLabel: contest.bibNumberLabel, styles, styleName };
}

/**
 * The lines of the contest's paid orders still waiting in the order list, oldest order first,
 * each with why it gets no video (お断り, 返金), if it does not.
 */
export function openLinesOf(reader: Reader, contestId: number) {
  const pending = [...ORDER_TABS.pending];
  const lines = reader
    .select({
      id: orderLines.id,
      orderId: orderLines.orderId,
      lineNumber: orderLines.lineNumber,
      athleteId: orderLines.athleteId,
      athleteNumber: orderLines.athleteNumber,
      athleteName: orderLines.athleteName,
      orientation: orderLines.orientation,
      style: orderLines.style,
      orderNumber: orders.orderNumber,
      customerName: orders.customerName,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(eq(orders.contestId, contestId), eq(orders.paymentStatus, "paid"), inArray(orders.status, pending)),
    )
    .orderBy(asc(orders.createdAt), asc(orderLines.id))
    .all();
  const without = linesWithoutVideo(
    lines.map((line) => line.orderId),
    reader,
  );
  return lines.map((line) => ({ ...line, withoutVideo: without.get(line.id) ?? null }));
}
export type OpenLine = ReturnType<typeof openLinesOf>[number];

/** The contest's athletes, and deleted ones that still have order lines waiting. */
export function planAthletes(reader: Reader, contestId: number, openLines: OpenLine[]) {
  const openAthleteIds = [...new Set(openLines.flatMap((line) => (line.athleteId ? [line.athleteId] : [])))];
  return reader
    .select({
      id: athletes.id,
      athleteNumber: athletes.athleteNumber,
      name: athletes.name,
      category: athletes.category,
    })
    .from(athletes)
    .where(
      and(
        eq(athletes.contestId, contestId),
        or(
          eq(athletes.isDeleted, false),
          openAthleteIds.length ? inArray(athletes.id, openAthleteIds) : undefined,
        ),
      ),
    )
    .orderBy(asc(athletes.athleteNumber))
    .all();
}

/** The contest's files not retired, oldest first, each with the number of order lines it serves. */
export function poolOf(reader: Reader, contestId: number) {
  const pool = reader
    .select()
    .from(deliveryFiles)
    .where(and(eq(deliveryFiles.contestId, contestId), isNull(deliveryFiles.retiredAt)))
    .orderBy(asc(deliveryFiles.uploadedAt), asc(deliveryFiles.id))
    .all();
  const served = new Map(
    pool.length
      ? reader
          .select({ fileId: orderLines.deliveryFileId, n: count() })
          .from(orderLines)
          .where(
            and(
              isNotNull(orderLines.deliveryFileId),
              inArray(
                orderLines.deliveryFileId,
                pool.map((file) => file.id),
              ),
            ),
          )
          .groupBy(orderLines.deliveryFileId)
          .all()
          .map((row) => [row.fileId, row.n])
      : [],
  );
  return pool.map((file) => ({ file, lineCount: served.get(file.id) ?? 0 }));
}
export type PoolEntry = ReturnType<typeof poolOf>[number];

/** The order numbers each delivered file serves, for the "replaces" column. */
export function deliveredOrdersOf(reader: Reader, fileIds: number[]): Map<number, string[]> {
  const result = new Map<number, string[]>();
  if (fileIds.length === 0) return result;
  const rows = reader
    .selectDistinct({ fileId: orderLines.deliveryFileId, orderNumber: orders.orderNumber })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(inArray(orderLines.deliveryFileId, fileIds))
    .orderBy(asc(orders.orderNumber))
    .all();
  for (const row of rows) {
    if (row.fileId === null) continue;
    result.set(row.fileId, [...(result.get(row.fileId) ?? []), row.orderNumber]);
  }
  return result;
}

/** Delivered orders whose file was replaced after their delivery mail: the admin may mail them again. */
export function changedSinceMailOf(reader: Reader, contestId: number) {
  return reader
    .select({ id: orders.id, orderNumber: orders.orderNumber, customerName: orders.customerName })
    .from(orders)
    .where(
      and(
        eq(orders.contestId, contestId),
        isNotNull(orders.deliveryChangedAt),
        or(isNull(orders.deliveryMailSentAt), gt(orders.deliveryChangedAt, orders.deliveryMailSentAt)),
      ),
    )
    .orderBy(asc(orders.orderNumber))
    .all();
}
