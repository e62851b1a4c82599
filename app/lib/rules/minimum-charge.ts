import { formatYenShort } from "./format";

/** Stripe's smallest charge in yen: discounts stop there. */
export const MIN_CHARGE = 50;

/**
 * Said under a price breakdown whose discounts stop at the smallest payable amount (MIN_CHARGE),
 * so a 100 % coupon that leaves 50円 comes with its reason. Read from the breakdown alone (what
 * is paid and what came off), so the pages before the order and those after it (from the stored
 * order) and the mails say the same; discounts that come to exactly that much by themselves read
 * the same, and the sentence is as true of them.
 */
export function minimumChargeNote(breakdown: {
  total: number;
  discounts: readonly { amount: number }[];
}): string | null {
  const off = breakdown.discounts.reduce((sum, discount) => sum + discount.amount, 0);
  if (off <= 0 || breakdown.total !== MIN_CHARGE) return null;
  return `お支払いは最低${formatYenShort(MIN_CHARGE)}からのため、割引は${formatYenShort(off)}までとなります。`;
}
