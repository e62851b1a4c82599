import { formatDateLong, formatYenShort } from "~/lib/rules/format";
import { countsAsRefund, lineRefundState, refundTotals } from "~/lib/rules/refunds";
import type { refunds } from "../db/schema";

/**
 * Refunds on a 領収書. A receipt says what the shop received and kept: the amount after refunds
 * (領収金額), its tax computed on that amount, and each refund as 返金 −N円 with a sentence
 * (「2026年11月27日に5,000円を返金しました。」), so a receipt issued or re-issued after a refund
 * never claims money the shop gave back.
 *
 * One issue is one document (receipts.server.ts): the first issue shows the refunds made by the
 * day it was issued, a 再発行 (dated the day it is printed) every refund. The page tells the
 * holder of a first issue made before a refund that a 再発行 shows the amount after it.
 */

type RefundRow = typeof refunds.$inferSelect;

export type ReceiptRefund = {
  /** "2026年11月27日" */
  on: string;
  amount: number;
  /** The money went back; else the refund is on its way (konbini: waiting for a bank account). */
  done: boolean;
  /** What the receipt says of it. */
  sentence: string;
};

/** The day the refund is dated: when the money went back, or when the shop made it. */
function refundDay(row: RefundRow): Date {
  return (row.status === "succeeded" ? row.succeededAt : null) ?? row.createdAt;
}

/** The refunds a copy dated `asOf` shows (null: every refund), failed ones never. */
export function refundsAsOf(rows: readonly RefundRow[], asOf: Date | null): RefundRow[] {
  return rows.filter((row) => countsAsRefund(row.status) && (asOf === null || row.createdAt <= asOf));
}

export function receiptRefund(row: RefundRow): ReceiptRefund {
  const on = formatDateLong(refundDay(row));
  const done = row.status === "succeeded";
  const amount = formatYenShort(row.amount);
  return {
    on,
    amount: row.amount,
    done,
    sentence: done ? `${on}に${amount}を返金しました。` : `${on}に${amount}の返金手続きをいたしました。`,
  };
}

/** Whether a receipt's line was refunded (shown 返金済み beside it; its price stays what was paid). */
export function lineRefundedOn(lineId: number, shown: readonly RefundRow[]): boolean {
  return lineRefundState(lineId, shown) !== null;
}

/** The amount after every counted refund: 0 means the whole order was given back. */
export function amountKept(total: number, rows: readonly RefundRow[]): number {
  return refundTotals(total, rows).net;
}

export const RECEIPT_REFUND_MESSAGES = {
  fullyRefunded:
    "このご注文は全額を返金しました（返金手続き中を含みます）。お支払いいただいた金額が残っていないため、領収書は発行できません。",
  laterRefund: (sentences: string[]) =>
    `この領収書の発行後に返金がありました。${sentences.join("")}返金後の金額の領収書が必要な場合は、再発行してください。`,
} as const;
