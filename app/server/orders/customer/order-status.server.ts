import { desc, eq } from "drizzle-orm";
import { promisedDeliveryDay } from "../business-days.server";
import { orderBreakdown, type OrderBreakdown, type PricedOrderLine } from "~/lib/rules/order-discounts";
import { orderProgress, type OrderProgress } from "~/lib/rules/order-progress";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { downloadPages, type PaymentMethod } from "../../db/schema";
import { orderByStatusToken } from "../orders.server";
import {
  lineRefund,
  orderRefunds,
  type LineRefund,
  type OrderRefunds,
} from "../../refunds/customer-refunds.server";
import { refundsOfOrder } from "../../refunds/order-refunds.server";
import { boughtLine, linesOfOrder, refusalNoteOf, type BoughtLine } from "../order-lines.server";

/**
 * The order status page (注文状況): where one order stands, opened by the unguessable token
 * mailed with the order (128 random bits, like a download page's id), so it needs no login and
 * shows nothing to anyone without the link. Its address is `orderStatusPath` (lib/rules/order-links.ts).
 */

const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "クレジットカード",
  konbini: "コンビニ払い",
};

export type OrderStatusView = {
  orderNumber: string;
  createdAt: Date;
  contestName: string;
  numberLabel: string;
  /** `refusalNote`: お断り, the shop's note to the customer (the line is not made); its refund, if any. */
  lines: (BoughtLine & PricedOrderLine & { refusalNote: string | null } & LineRefund)[];
  totalAmount: number;
  /** The list prices and each discount, when the order had one (null: the total alone, as before). */
  breakdown: OrderBreakdown | null;
  /** The refunds made, and what the order comes to after them. */
  refunds: OrderRefunds;
  paymentMethod: string;
  progress: OrderProgress;
  /** 入金待ち: what the customer takes to the store, and until when. */
  voucher: { confirmationNumber: string | null; dueAt: Date | null; voucherUrl: string | null } | null;
  /** 制作中: the Tokyo day ("YYYY-MM-DD") the videos are promised for. */
  expectedDeliveryDay: string | null;
  /**
   * Every line is お断り or refunded: nothing is being made, so the page does not say 制作中's
   * 「動画を制作しています」 and promises no day.
   */
  nothingToMake: boolean;
  /** 納品済み: the order's download page (null if the order was marked handled without one). */
  download: { url: string; expiresAt: Date; expired: boolean } | null;
};

/** What the status page shows for a token, or null for a malformed or unknown one (the page's 404). */
export function orderStatusByToken(token: string): OrderStatusView | null {
  const order = orderByStatusToken(token);
  if (!order) return null;
  const refundRows = refundsOfOrder(order.id);
  const refunds = orderRefunds(order, refundRows);
  const progress = orderProgress(order, refunds.net);
  const page =
    progress === "納品済み"
      ? db()
          .select()
          .from(downloadPages)
          .where(eq(downloadPages.orderId, order.id))
          .orderBy(desc(downloadPages.createdAt))
          .limit(1)
          .get()
      : undefined;
  const lines = linesOfOrder(order.id).map((line) => ({
    ...boughtLine(line),
    listPrice: line.listPrice,
    discounts: line.discounts,
    refusalNote: refusalNoteOf(line),
    ...lineRefund(line, refundRows),
  }));
  // A typed refund of the whole amount names no line, and leaves nothing to make either.
  const nothingToMake =
    refunds.net <= 0 ||
    (lines.length > 0 && lines.every((line) => line.refusalNote !== null || line.refundState !== null));
  return {
    orderNumber: order.orderNumber,
    createdAt: order.createdAt,
    contestName: order.contestName,
    numberLabel: order.bibNumberLabel,
    lines,
    totalAmount: order.totalAmount,
    breakdown: orderBreakdown(order),
    refunds,
    paymentMethod: PAYMENT_METHOD_LABELS[order.paymentMethod],
    progress,
    voucher:
      progress === "入金待ち"
        ? {
            confirmationNumber: order.konbiniConfirmationNumber,
            dueAt: order.paymentDueAt,
            voucherUrl: order.konbiniVoucherUrl,
          }
        : null,
    // Counted from the payment: a konbini order paid days later is made from then, not from the order.
    expectedDeliveryDay:
      progress === "制作中" && !nothingToMake ? promisedDeliveryDay(order.paidAt ?? order.createdAt) : null,
    nothingToMake,
    download: page
      ? { url: `/download/${page.id}`, expiresAt: page.expiresAt, expired: page.expiresAt <= now() }
      : null,
  };
}
