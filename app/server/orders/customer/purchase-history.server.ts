import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { inArray } from "drizzle-orm";
import { orderProgress, type OrderProgress } from "~/lib/rules/order-progress";
import { receiptPath } from "~/lib/rules/receipt";
import type { RefundTotals } from "~/lib/rules/refunds";
import { db, type Db, type Tx } from "../../db/client.server";
import { downloadPages, orders, users } from "../../db/schema";
import { lineRefund, orderRefunds, type LineRefund } from "../../refunds/customer-refunds.server";
import { refundsOfOrders } from "../../refunds/order-refunds.server";
import { boughtLine, isDelivered, linesOfOrders, type BoughtLine } from "../order-lines.server";
import { orderStatusPath } from "~/lib/rules/order-links";

/**
 * A user's orders, matched on the account's e-mail (both are stored lower-cased, so the
 * match uses the orders_email_created index), newest first, one page at a time.
 *
 * Which orders belong to an account is decided here, in `ordersOf`: every order placed with
 * its address, except that an account the checkout's auto-login made (`addressUnconfirmed`)
 * sees only the orders placed by the account itself until its address is confirmed by a
 * mailed link. The checkout's six-digit code can be guessed; a mailbox link cannot, and the
 * earlier orders carry download pages.
 */

function ordersOf(email: string, tx: Tx | Db = db()): SQL | undefined {
  const owner = tx
    .select({ id: users.id, addressUnconfirmed: users.addressUnconfirmed })
    .from(users)
    .where(eq(users.email, email))
    .get();
  const byAddress = eq(orders.customerEmail, email);
  return owner?.addressUnconfirmed ? and(byAddress, eq(orders.userId, owner.id)) : byAddress;
}

export const ORDERS_PER_PAGE = 10;

export type HistoryLine = BoughtLine &
  LineRefund & {
    /** The order's download page, once this line is delivered: downloads go through it (once each, before expiry). */
    downloadUrl: string | null;
    /** お断り: the shop will not make it (so it is not 納品待ち). */
    refused: boolean;
  };

export type HistoryOrder = {
  orderNumber: string;
  /** Where the order stands (入金待ち / 制作中 / 納品済み / 期限切れ), and its status page. */
  progress: OrderProgress;
  statusPath: string;
  orderedAt: Date;
  numberLabel: string;
  totalAmount: number;
  /** Refunded (and on its way) and what the order comes to after them. */
  refunds: RefundTotals;
  /** The order's 領収書, once it is paid (a konbini order awaiting payment has none yet). */
  receiptUrl: string | null;
  lines: HistoryLine[];
};

/** `page` is 1-based; a page past the end shows the last one. */
export function purchaseHistory(email: string, page: number, perPage = ORDERS_PER_PAGE) {
  const customerEmail = email.toLowerCase();
  const belongs = ordersOf(customerEmail);
  const total = db().select({ total: count() }).from(orders).where(belongs).get()?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = db()
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      createdAt: orders.createdAt,
      bibNumberLabel: orders.bibNumberLabel,
      totalAmount: orders.totalAmount,
      paymentMethod: orders.paymentMethod,
      status: orders.status,
      paymentStatus: orders.paymentStatus,
      statusToken: orders.statusToken,
    })
    .from(orders)
    .where(belongs)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(perPage)
    .offset((current - 1) * perPage)
    .all();
  const lines = linesOfOrders(rows.map((row) => row.id));
  const refundRows = refundsOfOrders(rows.map((row) => row.id));
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
  const history: HistoryOrder[] = rows.map((row) => {
    const ownRefunds = refundRows.get(row.id) ?? [];
    const { refunded, inProgress, net } = orderRefunds(row, ownRefunds);
    return {
      orderNumber: row.orderNumber,
      progress: orderProgress(row, net),
      statusPath: orderStatusPath(row.statusToken),
      orderedAt: row.createdAt,
      numberLabel: row.bibNumberLabel,
      totalAmount: row.totalAmount,
      refunds: { refunded, inProgress, net },
      // A fully refunded order has nothing to give a receipt for (its receipt page says so).
      receiptUrl: row.paymentStatus === "paid" && net > 0 ? receiptPath(row.statusToken) : null,
      lines: lines
        .filter((line) => line.orderId === row.id)
        .map((line) => ({
          ...boughtLine(line),
          downloadUrl: isDelivered(line) ? downloadPageUrl(pages, row.id) : null,
          refused: line.refused,
          ...lineRefund(line, ownRefunds),
        })),
    };
  });
  return { orders: history, page: current, pageCount, total };
}

function downloadPageUrl(pages: { id: string; orderId: number }[], orderId: number): string | null {
  const page = pages.find((candidate) => candidate.orderId === orderId);
  return page ? `/download/${page.id}` : null;
}
