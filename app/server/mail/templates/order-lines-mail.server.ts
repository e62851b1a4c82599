import { formatYen, formatYenShort } from "~/lib/rules/format";
import {
  breakdownOfLines,
  isDiscounted,
  linePriceText,
  type PricedOrderLine,
} from "~/lib/rules/order-discounts";
import { minimumChargeNote, type Discount } from "~/lib/rules/promotions";

/**
 * An order's lines and their prices as the mails list them (the confirmation, the konbini
 * voucher). A line is an order_lines row: `price` is what was paid, `listPrice` and `discounts`
 * its breakdown (absent or empty on orders without a discount, which read as they always did).
 */
export type MailOrderLine = {
  category: string;
  athleteNumber: number;
  athleteName: string;
  style: string;
  price: number;
  listPrice?: number | null;
  discounts?: readonly Discount[];
};

function priced(line: MailOrderLine): PricedOrderLine {
  return { price: line.price, listPrice: line.listPrice ?? null, discounts: line.discounts ?? [] };
}

/** 「3,000円（税込）」, or for a discounted line 「3,500円 → 3,000円（早割）」. */
export function mailLinePrice(line: MailOrderLine): string {
  return isDiscounted(priced(line)) ? linePriceText(priced(line)) : formatYen(line.price);
}

/**
 * The rows between the lines and the total when something came off: 小計（通常価格）, then each
 * discount (「早割」「−500円」); none for an order without a discount.
 */
export function discountRows(lines: readonly MailOrderLine[]): [string, string][] {
  const breakdown = breakdownOfLines(lines.map(priced));
  if (!breakdown) return [];
  return [
    ["小計（通常価格）", formatYen(breakdown.listTotal)],
    ...breakdown.discounts.map((discount): [string, string] => [
      discount.name,
      `−${formatYenShort(discount.amount)}`,
    ]),
  ];
}

/** Why the discounts stopped at the smallest payable amount, said under the total as the pages say it; none otherwise. */
export function minimumChargeBlocks(lines: readonly MailOrderLine[]): { text: string }[] {
  const breakdown = breakdownOfLines(lines.map(priced));
  const note = breakdown && minimumChargeNote(breakdown);
  return note ? [{ text: note }] : [];
}
