import { formatAmountIn } from "~/lib/rules/format";
import type { StrayPaymentReason } from "../db/schema";

/**
 * Whether money the provider reports as refunded fits the payment it names, before it touches
 * an order. A signed report is the provider's, but it can still be wrong for the shop (an account
 * shared with another shop or currency, a refund of another payment naming a shop id reused after
 * a restore, a bug on either side): written as it came, one 300,000円 refund of a 3,000円 order
 * made the order, its receipt and the sales say the customer got back a hundred times what was
 * paid. A report that does not fit is filed in the ledger of stray payments for the admin and
 * changes nothing else (refund-sending.server.ts, stray-ledger.server.ts).
 */

export type RefundMisfitReason = Extract<
  StrayPaymentReason,
  "refund_over" | "refund_currency" | "refund_amount"
>;

/** Why the report does not fit, in the words the admin reads on the ledger and in the mail. */
export type RefundMisfit = { reason: RefundMisfitReason; detail: string };

/** What the provider says: one refund, or a charge's total refunded (charge.refunded). */
export type ReportedRefundMoney = { amount: number; currency: string };

/**
 * What the report must fit:
 * - `asked`: a refund the shop wrote down and asked for is reported with exactly its amount;
 * - `left`: a refund the shop did not ask for is at most what is left of its payment (what was
 *   paid less every refund that counts), `of` naming the payment ("注文 10000001");
 * - `total`: a charge's total refunded is at most what was paid.
 */
export type RefundLimit =
  | { rule: "asked"; amount: number; currency: string }
  | { rule: "left"; left: number; currency: string; of: string }
  | { rule: "total"; paid: number; currency: string; of: string };

export function refundMisfit(reported: ReportedRefundMoney, limit: RefundLimit): RefundMisfit | null {
  const { amount } = reported;
  const said = formatAmountIn(amount, reported.currency);
  // A refund moves at least one of the currency's smallest unit (1円): zero, a negative
  // amount or a fraction of a yen is not a refund the shop could have been given.
  const least = limit.rule === "total" ? 0 : 1;
  if (!Number.isSafeInteger(amount) || amount < least)
    return {
      reason: "refund_amount",
      detail: `報告された返金額（${amount}）が${least}以上の整数ではありません。`,
    };
  if (reported.currency.toLowerCase() !== limit.currency.toLowerCase())
    return {
      reason: "refund_currency",
      detail: `報告された返金の通貨（${reported.currency.toUpperCase()}）が、${
        limit.rule === "asked" ? "ショップが依頼した返金" : limit.of
      }の通貨（${limit.currency.toUpperCase()}）と違います。`,
    };
  switch (limit.rule) {
    case "asked":
      return amount === limit.amount
        ? null
        : {
            reason: "refund_amount",
            detail: `報告された返金額（${said}）が、ショップが依頼した返金額（${formatAmountIn(limit.amount, limit.currency)}）と違います。`,
          };
    case "left":
      return amount <= limit.left
        ? null
        : {
            reason: "refund_over",
            detail: `報告された返金額（${said}）が、${limit.of}で返金できる残り（${formatAmountIn(limit.left, limit.currency)}）を超えています。`,
          };
    case "total":
      return amount <= limit.paid
        ? null
        : {
            reason: "refund_over",
            detail: `報告された返金の合計（${said}）が、${limit.of}の支払額（${formatAmountIn(limit.paid, limit.currency)}）を超えています。`,
          };
  }
}
