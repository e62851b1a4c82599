import { orderBreakdown } from "~/lib/rules/order-discounts";
import { eq, inArray } from "drizzle-orm";
import {
  countsAsRefund,
  lineRefundState,
  REFUND_STATUS_LABELS,
  refundTotals,
  type RefundStatus,
} from "~/lib/rules/refunds";
import { db } from "../../db/client.server";
import { orderLines, orders, users } from "../../db/schema";
import { paymentProvider } from "../../payments/index.server";
import {
  awaitsProviderReport,
  REFUND_AWAITS_PROVIDER,
  refundsOfOrder,
} from "../../refunds/order-refunds.server";
import { manualPaymentRefusal } from "./manual-payment.server";

/**
 * One order in the back-office (/admin/orders/:orderNumber): what was bought and paid, each
 * line's state (お断り, 返金済み / 返金手続き中), the refund history, and what is left to refund.
 * The refund form offers the lines no counted refund covers, at their paid prices.
 */

/** Order numbers are 8 digits; anything much longer is no order's and is not looked up. */
const ORDER_NUMBER_MAX = 20;

export function findOrderByNumber(orderNumber: string | undefined) {
  if (!orderNumber || orderNumber.length > ORDER_NUMBER_MAX) return undefined;
  return db().select().from(orders).where(eq(orders.orderNumber, orderNumber)).get();
}

export type OrderPageOrder = NonNullable<ReturnType<typeof findOrderByNumber>>;

export function orderPage(order: OrderPageOrder) {
  const lines = db()
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(orderLines.id)
    .all();
  const refunds = refundsOfOrder(order.id);
  const totals = refundTotals(order.totalAmount, refunds);
  const adminIds = [
    ...new Set(refunds.flatMap((refund) => (refund.adminUserId ? [refund.adminUserId] : []))),
  ];
  const admins = adminIds.length
    ? db().select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, adminIds)).all()
    : [];
  const testMode = paymentProvider().mode === "test";
  const lineNumberOf = new Map(lines.map((line) => [line.id, line.lineNumber]));
  return {
    order: {
      id: order.id,
      orderNumber: order.orderNumber,
      createdAt: order.createdAt,
      customerName: order.customerName,
      customerEmail: order.customerEmail,
      contestName: order.contestName,
      paymentMethod: order.paymentMethod,
      paymentStatus: order.paymentStatus,
      paidAt: order.paidAt,
      status: order.status,
      totalAmount: order.totalAmount,
      /** The list prices and each discount (null: none, the total alone as before promotions). */
      breakdown: orderBreakdown(order),
      paymentDueAt: order.paymentDueAt,
      konbiniConfirmationNumber: order.konbiniConfirmationNumber,
      /** 入金確認（手動）: who confirmed the payment by hand and when, and when the provider's own report came since. */
      manualPayment:
        order.manualPaymentConfirmedBy && order.manualPaymentConfirmedAt
          ? {
              by: order.manualPaymentConfirmedBy,
              at: order.manualPaymentConfirmedAt,
              reportedAt: order.providerPaymentReportedAt,
            }
          : null,
      /** A konbini order still waiting, whose payment an admin may confirm by hand. */
      manualPaymentOpen: manualPaymentRefusal(order) === null,
      /** Paid by hand and not yet in at the provider: not refundable until it is, and why. */
      refundAwaitsProvider: awaitsProviderReport(order) ? REFUND_AWAITS_PROVIDER : null,
    },
    lines: lines.map((line) => ({
      id: line.id,
      lineNumber: line.lineNumber,
      category: line.category,
      athlete: `${order.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}`,
      style: line.style,
      price: line.price,
      listPrice: line.listPrice,
      discounts: line.discounts,
      status: line.status,
      refused: line.refused,
      refusalNote: line.refusalNote,
      refundState: lineRefundState(line.id, refunds),
      /** When its download, cut short and never finished in its 24 hours, was offered once more. */
      downloadRetryAt: line.downloadRetryAt,
    })),
    // The history newest first: the latest refund is what the admin came to see.
    refunds: [...refunds].reverse().map((refund) => ({
      id: refund.id,
      amount: refund.amount,
      lineNumbers: refund.lineIds.map((id) => lineNumberOf.get(id) ?? `#${id}`),
      reason: refund.reason,
      status: refund.status,
      statusLabel: REFUND_STATUS_LABELS[refund.status],
      failureReason: refund.failureReason,
      method: refund.method,
      admin: admins.find((admin) => admin.id === refund.adminUserId)?.email ?? null,
      createdAt: refund.createdAt,
      succeededAt: refund.succeededAt,
      // Not reached at the provider: 再送信 sends it again under the same idempotency key.
      resendable: refund.status === "requested",
      // テストモード: the customer's bank transfer of a konbini refund, which Stripe would report.
      testCompletable:
        testMode &&
        refund.status === "processing" &&
        refund.method === "konbini" &&
        !!refund.providerRefundId,
    })),
    totals,
    /** What the form may still refund: the amount after every counted refund. */
    left: order.paymentStatus === "paid" ? totals.net : 0,
  };
}

export type OrderPage = ReturnType<typeof orderPage>;

/** The order's refund badge in the order list and on its page; null when nothing counts. */
export type OrderRefundMark = "返金済み" | "一部返金" | "返金手続き中";

export function orderRefundMark(
  total: number,
  refunds: readonly { status: RefundStatus; amount: number; lineIds: readonly number[] }[],
): OrderRefundMark | null {
  const counted = refunds.filter((refund) => countsAsRefund(refund.status));
  if (counted.length === 0) return null;
  const { refunded, inProgress } = refundTotals(total, counted);
  if (inProgress > 0) return "返金手続き中";
  return refunded >= total ? "返金済み" : "一部返金";
}
