import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { formatYenShort } from "~/lib/rules/format";
import { refundedLineIds, refundTotals } from "~/lib/rules/refunds";
import { db, type Tx } from "../db/client.server";
import { orderLines, orders, refunds } from "../db/schema";
import { sendRefund, type RefundRow } from "./refund-sending.server";

/**
 * 返金 of an order, from the back-office: chosen lines at their paid prices, or a typed amount,
 * never more than what is left of what was paid. The check and the row are one immediate
 * transaction, so two admins at once cannot both take the last of it, and the form's one-time
 * key (`requestKey`) makes a double click or a replayed post find the refund it already made.
 */

export type OrderRefundRequest = {
  orderId: number;
  /** Chosen lines; empty when `amount` is typed instead. */
  lineIds: number[];
  amount: number | null;
  reason: string;
  requestKey: string;
  adminUserId: number;
};

export type OrderRefundResult =
  | { ok: true; refund: RefundRow; replayed: boolean }
  | { ok: false; status: 404 | 409 | 422; message: string };

/**
 * A konbini payment an admin confirmed by hand (入金確認（手動）) is not yet in at the provider,
 * which refunds only a payment it has: such an order is refunded once the provider's own report
 * came in (recordPayment notes it), never before, so no refund is sent to fail.
 */
export const REFUND_AWAITS_PROVIDER =
  "この注文の入金は管理者が手動で確認したもので、決済サービスからの入金の連絡がまだありません。連絡が届いてから返金できます。";

export function awaitsProviderReport(order: {
  manualPaymentConfirmedAt: Date | null;
  providerPaymentReportedAt: Date | null;
}): boolean {
  return order.manualPaymentConfirmedAt !== null && order.providerPaymentReportedAt === null;
}

export async function refundOrder(request: OrderRefundRequest): Promise<OrderRefundResult> {
  const written = db().transaction((tx) => writeRefund(tx, request), { behavior: "immediate" });
  if (!written.ok) return written;
  // A replayed post answers what the first one did; a refund still unsent is sent again (same key).
  const refund = await sendRefund(written.refund.id);
  return { ok: true, refund, replayed: written.replayed };
}

function writeRefund(tx: Tx, request: OrderRefundRequest): OrderRefundResult {
  const earlier = tx.select().from(refunds).where(eq(refunds.requestKey, request.requestKey)).get();
  if (earlier) {
    if (earlier.orderId !== request.orderId)
      return {
        ok: false,
        status: 409,
        message: "この返金の申請は別の注文のものです。画面を再読み込みしてください。",
      };
    return { ok: true, refund: earlier, replayed: true };
  }
  const order = tx.select().from(orders).where(eq(orders.id, request.orderId)).get();
  if (!order) return { ok: false, status: 404, message: "注文が見つかりません。" };
  if (order.paymentStatus !== "paid")
    return { ok: false, status: 409, message: "入金が確認された注文だけを返金できます。" };
  if (awaitsProviderReport(order)) return { ok: false, status: 409, message: REFUND_AWAITS_PROVIDER };
  const made = tx.select().from(refunds).where(eq(refunds.orderId, order.id)).all();
  const { net: left } = refundTotals(order.totalAmount, made);
  const amount = refundAmount(tx, request, made, order.id);
  if (typeof amount === "string") return { ok: false, status: 422, message: amount };
  if (amount > left)
    return {
      ok: false,
      status: 409,
      message:
        left > 0
          ? `返金できるのは残りの${formatYenShort(left)}までです。`
          : "この注文は全額返金済み（または返金手続き中）です。",
    };
  const refund = tx
    .insert(refunds)
    .values({
      orderId: order.id,
      paymentIntentId: order.paymentIntentId,
      lineIds: request.lineIds,
      amount,
      method: order.paymentMethod,
      reason: request.reason,
      requestKey: request.requestKey,
      adminUserId: request.adminUserId,
    })
    .returning()
    .get();
  return { ok: true, refund, replayed: false };
}

/** The amount asked for: the chosen lines' paid prices (each refunded once), or the typed amount. */
function refundAmount(
  tx: Tx,
  request: OrderRefundRequest,
  made: RefundRow[],
  orderId: number,
): number | string {
  if (request.lineIds.length === 0) {
    if (request.amount === null) return "返金する明細を選ぶか、返金額を入力してください。";
    // The form's schema reads only whole yen; a caller passing anything else is refused the same way.
    if (!Number.isSafeInteger(request.amount) || request.amount < 1)
      return "返金額は1円以上の整数で指定してください。";
    return request.amount;
  }
  let sum = 0;
  for (const lineId of new Set(request.lineIds)) {
    const line = tx
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.id, lineId), eq(orderLines.orderId, orderId)))
      .get();
    if (!line) return "選んだ明細がこの注文にありません。画面を再読み込みしてください。";
    if (made.some((refund) => refund.status !== "failed" && refund.lineIds.includes(lineId)))
      return `明細 ${line.lineNumber} は返金済み（または返金手続き中）です。`;
    sum += line.price;
  }
  return sum;
}

/** The refunds of a page of orders, each order's oldest first (failed ones too: the rules skip them). */
export function refundsOfOrders(orderIds: readonly number[]): Map<number, RefundRow[]> {
  const byOrder = new Map<number, RefundRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = db()
    .select()
    .from(refunds)
    .where(inArray(refunds.orderId, [...orderIds]))
    .orderBy(refunds.id)
    .all();
  for (const row of rows) {
    if (row.orderId === null) continue;
    byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  }
  return byOrder;
}

/** One order's refunds, oldest first. */
export function refundsOfOrder(orderId: number): RefundRow[] {
  return refundsOfOrders([orderId]).get(orderId) ?? [];
}

/**
 * The lines of these orders that are refunded (lib/rules/refunds.ts, refundedLineIds): no video is
 * made, delivered or downloaded for them. Takes the caller's reader, so 一括納品 reads inside its
 * own transaction.
 */
export function refundedLinesOf(orderIds: readonly number[], reader: Pick<Tx, "select"> = db()): Set<number> {
  const refunded = new Set<number>();
  if (orderIds.length === 0) return refunded;
  const ids = [...new Set(orderIds)];
  const made = reader
    .select({
      orderId: refunds.orderId,
      status: refunds.status,
      amount: refunds.amount,
      lineIds: refunds.lineIds,
    })
    .from(refunds)
    .where(inArray(refunds.orderId, ids))
    .all();
  const refundedOrderIds = [...new Set(made.flatMap((refund) => (refund.orderId ? [refund.orderId] : [])))];
  // Orders never refunded (nearly all of them) need no more reading.
  if (refundedOrderIds.length === 0) return refunded;
  const totals = reader
    .select({ id: orders.id, totalAmount: orders.totalAmount })
    .from(orders)
    .where(inArray(orders.id, refundedOrderIds))
    .all();
  const lines = reader
    .select({ id: orderLines.id, orderId: orderLines.orderId })
    .from(orderLines)
    .where(inArray(orderLines.orderId, refundedOrderIds))
    .all();
  for (const order of totals) {
    const lineIds = lines.filter((line) => line.orderId === order.id).map((line) => line.id);
    const its = made.filter((refund) => refund.orderId === order.id);
    for (const lineId of refundedLineIds({ totalAmount: order.totalAmount, lineIds }, its))
      refunded.add(lineId);
  }
  return refunded;
}

/**
 * refundedLineIds as a condition on a query joining `order_lines` to `orders`, for a count over
 * more orders than a list of ids may name (the order list's ファイル未設定の明細): a counted
 * refund names the line, or the counted refunds reach what was paid.
 */
export function lineRefundedCondition(): SQL {
  return sql`(exists (select 1 from ${refunds}, json_each(${refunds.lineIds}) as named
      where ${refunds.orderId} = ${orders.id} and ${refunds.status} <> 'failed' and named.value = ${orderLines.id})
    or coalesce((select sum(${refunds.amount}) from ${refunds}
      where ${refunds.orderId} = ${orders.id} and ${refunds.status} <> 'failed'), -1) >= ${orders.totalAmount})`;
}
