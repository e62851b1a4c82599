import { asc, count, desc, eq, inArray } from "drizzle-orm";
import { db } from "../db/client.server";
import { downloadPages, orderLines, orders } from "../db/schema";

/**
 * A user's orders, matched on the account's e-mail (both are stored lower-cased, so the
 * match uses the orders_email_created index), newest first, one page at a time.
 */

export const ORDERS_PER_PAGE = 10;

export type HistoryLine = {
  id: number;
  contestName: string;
  category: string;
  athleteNumber: number;
  style: string;
  price: number;
  /** The order's download page, once this line is delivered: downloads go through it (once each, before expiry). */
  downloadUrl: string | null;
};

export type HistoryOrder = {
  orderNumber: string;
  orderedAt: Date;
  numberLabel: string;
  totalAmount: number;
  lines: HistoryLine[];
};

/** `page` is 1-based; a page past the end shows the last one. */
export function purchaseHistory(email: string, page: number, perPage = ORDERS_PER_PAGE) {
  const customerEmail = email.toLowerCase();
  const total =
    db().select({ total: count() }).from(orders).where(eq(orders.customerEmail, customerEmail)).get()
      ?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = db()
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      createdAt: orders.createdAt,
      bibNumberLabel: orders.bibNumberLabel,
      totalAmount: orders.totalAmount,
    })
    .from(orders)
    .where(eq(orders.customerEmail, customerEmail))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(perPage)
    .offset((current - 1) * perPage)
    .all();
  const lines =
    rows.length === 0
      ? []
      : db()
          .select()
          .from(orderLines)
          .where(
            inArray(
              orderLines.orderId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(asc(orderLines.id))
          .all();
  const pages =
    rows.length === 0
      ? []
      : db()
          .select({ id: downloadPages.id, orderId: downloadPages.orderId })
          .from(downloadPages)
          .where(
            inArray(
              downloadPages.orderId,
              rows.map((row) => row.id),
            ),
          )
          .all();
  const history: HistoryOrder[] = rows.map((row) => ({
    orderNumber: row.orderNumber,
    orderedAt: row.createdAt,
    numberLabel: row.bibNumberLabel || "ゼッケン番号",
    totalAmount: row.totalAmount,
    lines: lines
      .filter((line) => line.orderId === row.id)
      .map((line) => ({
        id: line.id,
        contestName: line.contestName,
        category: line.category,
        athleteNumber: line.athleteNumber,
        style: line.style,
        price: line.price,
        downloadUrl: line.videoDownloadUrl || line.deliveredMediaName ? downloadPageUrl(pages, row.id) : null,
      })),
  }));
  return { orders: history, page: current, pageCount, total };
}

function downloadPageUrl(pages: { id: string; orderId: number }[], orderId: number): string | null {
  const page = pages.find((candidate) => candidate.orderId === orderId);
  return page ? `/download/${page.id}` : null;
}
