import { inArray } from "drizzle-orm";
import { countsAsRefund, lineRefundState, refundTotals, type LineRefundState } from "~/lib/rules/refunds";
import { db } from "../db/client.server";
import { refunds, type PaymentMethod } from "../db/schema";
import { REFUND_ARRIVAL } from "../mail/templates/refund.server";

/**
 * An order's refunds as the customer's pages read them (注文状況, 購入履歴, /api/user/orders, the
 * 領収書): what each line and the order come to after refunds. The rules are lib/rules/refunds.ts;
 * this module reads the rows once for a page of orders and shapes them for those pages, so the
 * four agree on every amount and state.
 */

type RefundRow = typeof refunds.$inferSelect;

/** A refund the customer is told about (a failed one is not: nothing was given back). */
export type CustomerRefund = {
  amount: number;
  /** 返金済み once the provider sent the money, 返金手続き中 before (a konbini refund waits for a bank account). */
  state: LineRefundState;
  /** The day it was made (or, once the money went back, the day it did). */
  on: Date;
  reason: string;
};

export type OrderRefunds = {
  /** Given back. */
  refunded: number;
  /** Promised, on its way. */
  inProgress: number;
  /** What the order comes to after refunds (the total less both). */
  net: number;
  /** Counted refunds, oldest first. */
  refunds: CustomerRefund[];
  /** When the money reaches the customer, per the way the order was paid (the refund mail's words). */
  arrival: string | null;
};

export type RefundAmounts = Pick<OrderRefunds, "refunded" | "inProgress" | "net">;

/** Every refund of these orders, by order, oldest first. */
export function refundRowsOfOrders(orderIds: readonly number[]): Map<number, RefundRow[]> {
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
    const list = byOrder.get(row.orderId) ?? [];
    list.push(row);
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

export function refundRowsOfOrder(orderId: number): RefundRow[] {
  return refundRowsOfOrders([orderId]).get(orderId) ?? [];
}

export function orderRefunds(
  order: { totalAmount: number; paymentMethod: PaymentMethod },
  rows: readonly RefundRow[],
): OrderRefunds {
  const totals = refundTotals(order.totalAmount, rows);
  const counted = rows.filter((row) => countsAsRefund(row.status));
  return {
    ...totals,
    refunds: counted.map((row) => ({
      amount: row.amount,
      state: row.status === "succeeded" ? "返金済み" : "返金手続き中",
      on: (row.status === "succeeded" ? row.succeededAt : null) ?? row.createdAt,
      reason: row.reason,
    })),
    arrival: counted.length > 0 ? refundArrival(order.paymentMethod, totals.inProgress > 0) : null,
  };
}

/**
 * What the customer is told about the money's way back. A konbini refund once done needs no more
 * steps (the mail's instructions are for the bank account still to be given).
 */
function refundArrival(method: PaymentMethod, inProgress: boolean): string {
  if (method === "konbini" && !inProgress) return "ご登録いただいた口座へのお振込みが完了しました。";
  return REFUND_ARRIVAL[method];
}

export type LineRefund = {
  refundState: LineRefundState | null;
  /** The line's paid price once a counted refund covers it, else 0 (a typed amount names no line). */
  refundedAmount: number;
};

export function lineRefund(line: { id: number; price: number }, rows: readonly RefundRow[]): LineRefund {
  const refundState = lineRefundState(line.id, rows);
  return { refundState, refundedAmount: refundState ? line.price : 0 };
}

/** The API's words for a line's refund: null, "processing" (requested or with the provider) or "succeeded". */
export function apiRefundStatus(state: LineRefundState | null): "processing" | "succeeded" | null {
  if (state === null) return null;
  return state === "返金済み" ? "succeeded" : "processing";
}
