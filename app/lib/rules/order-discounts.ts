import { formatYenShort } from "./format";
import { summedDiscounts, type Discount } from "./promotions";

/**
 * An order's price breakdown as every page after the order shows it (the mails, 注文状況, the
 * receipt, the admin's order page): the lines at their list prices, each discount with its name,
 * and the total paid. The order stores it (orders.list_total / discounts, order_lines.list_price /
 * discounts); orders and lines from before promotions have null list prices and no discounts, and
 * read exactly as they always did.
 */

/** What a line stores of its price: `price` is what was paid for it. */
export type PricedOrderLine = { price: number; listPrice: number | null; discounts: readonly Discount[] };

/** The line's regular price (its list price; a line from before promotions paid its list price). */
export function regularPrice(line: PricedOrderLine): number {
  return line.listPrice ?? line.price;
}

/** Whether anything came off the line. */
export function isDiscounted(line: PricedOrderLine): boolean {
  return regularPrice(line) > line.price;
}

/** 「3,500円 → 3,000円（早割）」 for a discounted line, 「3,000円」 for any other. */
export function linePriceText(line: PricedOrderLine): string {
  if (!isDiscounted(line)) return formatYenShort(line.price);
  const names = line.discounts.map((discount) => discount.name).join("・");
  return `${formatYenShort(regularPrice(line))} → ${formatYenShort(line.price)}${names ? `（${names}）` : ""}`;
}

/** 「早割 −500円」: a discount as a line of a breakdown. */
export function discountText(discount: Discount): string {
  return `${discount.name} −${formatYenShort(discount.amount)}`;
}

export type OrderBreakdown = {
  /** The lines at their list prices (小計（通常価格）). */
  listTotal: number;
  /** Each discount summed over the lines, in the order they apply. */
  discounts: Discount[];
  /** What was paid. */
  total: number;
};

/**
 * The order's breakdown from its stored columns; null when it had no discount (the page shows
 * the total alone, as before promotions).
 */
export function orderBreakdown(order: {
  totalAmount: number;
  listTotal: number | null;
  discounts: readonly Discount[];
}): OrderBreakdown | null {
  const discounts = order.discounts.filter((discount) => discount.amount > 0);
  if (discounts.length === 0) return null;
  const given = discounts.reduce((sum, discount) => sum + discount.amount, 0);
  return {
    listTotal: order.listTotal ?? order.totalAmount + given,
    discounts: discounts.map((discount) => ({ ...discount })),
    total: order.totalAmount,
  };
}

/** The same breakdown summed from the lines (a mail gets the lines it lists). */
export function breakdownOfLines(lines: readonly PricedOrderLine[]): OrderBreakdown | null {
  return orderBreakdown({
    totalAmount: lines.reduce((sum, line) => sum + line.price, 0),
    listTotal: lines.reduce((sum, line) => sum + regularPrice(line), 0),
    discounts: summedDiscounts(lines.map((line) => ({ discounts: [...line.discounts] }))),
  });
}
