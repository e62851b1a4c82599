import {
  countsAsRefund,
  lineRefundState,
  refundTotals,
  type LineRefundState,
  type RefundTotals,
} from "~/lib/rules/refunds";
import type { PaymentMethod } from "../db/schema";
import { REFUND_ARRIVAL } from "../mail/templates/refund.server";
import type { RefundRow } from "./refund-sending.server";

/**
 * An order's refunds as the customer's pages read them (注文状況, 購入履歴, /api/user/orders, the
 * 領収書, the download page): what each line and the order come to after refunds. The rules are
 * lib/rules/refunds.ts, the rows are read by refundsOfOrders (refunds/order-refunds.server.ts) once
 * for a page of orders; this module shapes them for those pages, so they agree on every amount and state.
 */

/** A refund the customer is told about (a failed one is not: nothing was given back). */
export type CustomerRefund = {
  amount: number;
  /** 返金済み once the provider sent the money, 返金手続き中 before (a konbini refund waits for a bank account). */
  state: LineRefundState;
  /** The day it was made (or, once the money went back, the day it did). */
  on: Date;
  reason: string;
};

export type OrderRefunds = RefundTotals & {
  /** Counted refunds, oldest first. */
  refunds: CustomerRefund[];
  /** When the money reaches the customer, per the way the order was paid (the refund mail's words). */
  arrival: string | null;
};

/** Every refund of these orders, by order, oldest first. */
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
