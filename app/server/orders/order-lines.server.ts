import { asc, inArray } from "drizzle-orm";
import { db } from "../db/client.server";
import { orderLines } from "../db/schema";

/**
 * An order's lines as the customer's pages read them (注文状況, the download page, 購入履歴 and
 * the receipt): one query, in the order they were bought, and what every one of those pages
 * shows of a line. Each page adds its own (a refusal's note, the download state, a link).
 */

export type OrderLine = typeof orderLines.$inferSelect;

/** The lines of these orders, in the order they were bought (the ids the shop gave them). */
export function linesOfOrders(orderIds: readonly number[]): OrderLine[] {
  if (orderIds.length === 0) return [];
  return db()
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, [...orderIds]))
    .orderBy(asc(orderLines.id))
    .all();
}

export function linesOfOrder(orderId: number): OrderLine[] {
  return linesOfOrders([orderId]);
}

/** What was bought on a line and for how much: the part every customer page shows. */
export type BoughtLine = {
  id: number;
  contestName: string;
  category: string;
  athleteNumber: number;
  /** So a family with two children can tell the videos apart. */
  athleteName: string;
  style: string;
  price: number;
};

export function boughtLine(line: OrderLine): BoughtLine {
  return {
    id: line.id,
    contestName: line.contestName,
    category: line.category,
    athleteNumber: line.athleteNumber,
    athleteName: line.athleteName,
    style: line.style,
    price: line.price,
  };
}

/** お断り: the shop's note to the customer (the line is not made), else null. */
export function refusalNoteOf(line: OrderLine): string | null {
  return line.refused ? (line.refusalNote ?? "") : null;
}

/** Whether the line has its video: a file the shop uploaded or a URL it gave. */
export function isDelivered(line: OrderLine): boolean {
  return Boolean(line.videoDownloadUrl || line.deliveryFileId);
}
