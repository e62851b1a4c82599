import { formatYen } from "~/lib/rules/format";

export type OrderLineView = {
  category: string;
  athleteNumber: number;
  athleteName?: string;
  style: string;
  price: number;
};

/** The items of an order as a list that reads well on a phone: one block per video. */
export function OrderLines({
  lines,
  numberLabel,
  total,
}: {
  lines: OrderLineView[];
  numberLabel: string;
  total: number;
}) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white">
      <ul className="divide-y divide-zinc-200">
        {lines.map((line, index) => (
          <li key={index} className="flex items-start justify-between gap-4 px-4 py-3">
            <div className="min-w-0 text-sm">
              <p className="font-semibold text-zinc-900">
                {line.category}・{numberLabel} {line.athleteNumber}
                {line.athleteName ? ` ${line.athleteName}` : ""}
              </p>
              <p className="mt-0.5 text-zinc-600">動画スタイル: {line.style}</p>
            </div>
            <p className="shrink-0 font-semibold">{formatYen(line.price)}</p>
          </li>
        ))}
      </ul>
      <div className="flex items-baseline justify-between border-t-2 border-zinc-200 px-4 py-3">
        <span className="font-semibold">合計金額</span>
        <span className="text-xl font-bold">{formatYen(total)}</span>
      </div>
    </div>
  );
}
