import { formatYen, formatYenShort } from "~/lib/rules/format";
import { minimumChargeNote } from "~/lib/rules/minimum-charge";
import {
  isDiscounted,
  regularPrice,
  type OrderBreakdown,
  type PricedOrderLine,
} from "~/lib/rules/order-discounts";

/**
 * A line's price on the pages after the order (注文状況): what was paid, and for a discounted line
 * its regular price struck through above it. A line without a discount shows its price alone, as
 * it always did; what came off is LineDiscounts, under the line.
 */
export function LinePrice({ line }: { line: PricedOrderLine }) {
  if (!isDiscounted(line))
    return <p className="text-sm font-semibold whitespace-nowrap">{formatYen(line.price)}</p>;
  return (
    <div className="text-right text-sm" data-testid="line-discounted-price">
      <del className="block text-xs text-zinc-500">
        <span className="sr-only">通常価格 </span>
        {formatYenShort(regularPrice(line))}
      </del>
      <p className="font-semibold whitespace-nowrap">{formatYen(line.price)}</p>
    </div>
  );
}

/** What came off a line, each discount by name, across the line's width (a coupon's name is long). */
export function LineDiscounts({ line, className = "" }: { line: PricedOrderLine; className?: string }) {
  if (!isDiscounted(line)) return null;
  return (
    <ul className={`flex flex-wrap gap-x-3 text-xs text-red-700 ${className}`} data-testid="line-discounts">
      {line.discounts.map((discount) => (
        <li key={discount.name} className="break-all">
          {discount.name} −{formatYenShort(discount.amount)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The rows between an order's lines and its total when something came off: 小計（通常価格）, then
 * each discount with its name, and why the discounts stopped where the order reached the smallest
 * payable amount. Rendered as list items, for a `<ul>` of lines.
 */
export function DiscountRows({ breakdown }: { breakdown: OrderBreakdown | null }) {
  if (!breakdown) return null;
  const note = minimumChargeNote(breakdown);
  return (
    <>
      <li className="flex items-baseline justify-between gap-4 px-4 py-2 text-sm">
        <p className="text-zinc-600">小計（通常価格）</p>
        <p className="whitespace-nowrap">{formatYenShort(breakdown.listTotal)}</p>
      </li>
      {breakdown.discounts.map((discount) => (
        <li
          key={discount.name}
          className="flex items-baseline justify-between gap-4 px-4 py-2 text-sm text-red-700"
          data-testid="order-discount"
        >
          <p>{discount.name}</p>
          <p className="whitespace-nowrap">−{formatYenShort(discount.amount)}</p>
        </li>
      ))}
      {note ? <li className="px-4 py-2 text-sm text-zinc-700">{note}</li> : null}
    </>
  );
}
