import { formatYen, formatYenShort } from "~/lib/rules/format";
import { minimumChargeNote } from "~/lib/rules/minimum-charge";
import type { Discount } from "~/lib/rules/promotions";

export type OrderLineView = {
  category: string;
  athleteNumber: number;
  athleteName?: string;
  style: string;
  /** What the line costs after its discounts. */
  price: number;
  listPrice?: number;
  discounts?: Discount[];
};

/**
 * The items of an order as a list that reads well on a phone: one block per video. A discounted
 * line shows its regular price struck through and what came off; under the lines, each discount
 * of the order, then the total.
 */
export function OrderLines({
  lines,
  numberLabel,
  total,
  listTotal,
  discounts = [],
}: {
  lines: OrderLineView[];
  numberLabel: string;
  total: number;
  listTotal?: number;
  discounts?: Discount[];
}) {
  const note = minimumChargeNote({ total, discounts });
  return (
    <div className="rounded-xl border border-zinc-200 bg-white">
      <ul className="divide-y divide-zinc-200">
        {lines.map((line, index) => (
          <li key={index} className="px-4 py-3">
            <div className="flex items-start justify-between gap-4">
              <div className="min-w-0 text-sm">
                <p className="font-semibold text-zinc-900">
                  {line.category}・{numberLabel} {line.athleteNumber}
                  {line.athleteName ? ` ${line.athleteName}` : ""}
                </p>
                <p className="mt-0.5 text-zinc-600">動画スタイル: {line.style}</p>
              </div>
              <div className="shrink-0 text-right">
                {line.listPrice !== undefined && line.listPrice > line.price ? (
                  <del className="block text-xs text-zinc-500">
                    <span className="sr-only">通常価格 </span>
                    {formatYenShort(line.listPrice)}
                  </del>
                ) : null}
                <p className="font-semibold">{formatYen(line.price)}</p>
              </div>
            </div>
            {/* Across the line's width: a coupon's name is long, and beside the price it broke into three rows on a phone. */}
            {line.discounts?.length ? (
              <div className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-red-700">
                {line.discounts.map((discount) => (
                  <p key={discount.name} className="break-all">
                    {discount.name} −{formatYenShort(discount.amount)}
                  </p>
                ))}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {discounts.length > 0 ? (
        <div className="border-t border-zinc-200 px-4 py-3 text-sm">
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
            {listTotal !== undefined ? (
              <>
                <dt className="text-zinc-600">小計（通常価格）</dt>
                <dd className="text-right">{formatYenShort(listTotal)}</dd>
              </>
            ) : null}
            {discounts.map((discount) => (
              <div key={discount.name} className="contents text-red-700">
                <dt>{discount.name}</dt>
                <dd className="text-right">−{formatYenShort(discount.amount)}</dd>
              </div>
            ))}
          </dl>
          {/* Why a 100 % coupon still leaves something to pay. */}
          {note ? <p className="mt-2 text-zinc-700">{note}</p> : null}
        </div>
      ) : null}
      <div className="flex items-baseline justify-between border-t-2 border-zinc-200 px-4 py-3">
        <span className="font-semibold">合計金額</span>
        <span className="text-xl font-bold">{formatYen(total)}</span>
      </div>
    </div>
  );
}
