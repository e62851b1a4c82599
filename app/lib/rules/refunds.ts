/**
 * What a refund means to an order, in lib because the customer's pages, the receipt, the API and
 * the back-office all show it the same way. A refund is counted from the moment it is asked for
 * (requested or processing): the money is promised to the customer, so the amount after refunds
 * and the lines' states already say so; only a failed refund is not counted.
 */
export const REFUND_STATUSES = ["requested", "processing", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export type RefundOfOrder = { status: RefundStatus; amount: number; lineIds: readonly number[] };

/** A line's refund as the customer reads it: 返金済み once the money is back, 返金手続き中 before. */
export type LineRefundState = "返金済み" | "返金手続き中";

export function countsAsRefund(status: RefundStatus): boolean {
  return status !== "failed";
}

export function lineRefundState(lineId: number, refunds: readonly RefundOfOrder[]): LineRefundState | null {
  const covering = refunds.filter(
    (refund) => countsAsRefund(refund.status) && refund.lineIds.includes(lineId),
  );
  if (covering.length === 0) return null;
  return covering.some((refund) => refund.status === "succeeded") ? "返金済み" : "返金手続き中";
}

/**
 * The lines whose money is given back or on its way: each line a counted refund names, and every
 * line once the counted refunds reach what was paid (a typed amount names no line, but a whole
 * order refunded owes nothing). Such a line is no longer made: it is neither delivered nor
 * downloadable, and an order of nothing but these and お断り lines has no video to send.
 */
export function refundedLineIds(
  order: { totalAmount: number; lineIds: readonly number[] },
  refunds: readonly RefundOfOrder[],
): Set<number> {
  const counted = refunds.filter((refund) => countsAsRefund(refund.status));
  if (counted.length > 0 && refundTotals(order.totalAmount, counted).net <= 0) return new Set(order.lineIds);
  return new Set(order.lineIds.filter((lineId) => counted.some((refund) => refund.lineIds.includes(lineId))));
}

export type RefundTotals = {
  /** Given back: the provider reported the money sent. */
  refunded: number;
  /** Promised and on its way (a konbini refund waits for the customer's bank account). */
  inProgress: number;
  /** What the customer paid less every counted refund: the order's amount after refunds. */
  net: number;
};

export function refundTotals(total: number, refunds: readonly RefundOfOrder[]): RefundTotals {
  let refunded = 0;
  let inProgress = 0;
  for (const refund of refunds) {
    if (refund.status === "succeeded") refunded += refund.amount;
    else if (countsAsRefund(refund.status)) inProgress += refund.amount;
  }
  return { refunded, inProgress, net: total - refunded - inProgress };
}

/** The label of a refund's state in the back-office and on the customer's pages. */
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  requested: "返金手続き中",
  processing: "返金手続き中",
  succeeded: "返金済み",
  failed: "返金できませんでした",
};
