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

/** The facts Japanese law asks to show on the final confirmation screen (特定商取引法 第12条の6). */
export function FinalConfirmationNotice() {
  return (
    <section
      aria-label="ご注文前にご確認ください"
      className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm leading-relaxed text-amber-950"
    >
      <h2 className="font-bold">ご注文前にご確認ください</h2>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[8rem_1fr]">
        <dt className="font-semibold">お支払い方法</dt>
        <dd>クレジットカード</dd>
        <dt className="font-semibold">お支払い時期</dt>
        <dd>ご注文確定時（カード決済の完了時）</dd>
        <dt className="font-semibold">お届け時期</dt>
        <dd>ご注文から2〜3営業日以内にメールでダウンロードURLをお送りします</dd>
        <dt className="font-semibold">キャンセル・返品</dt>
        <dd>デジタル商品のため、ご注文確定後のキャンセル・返品はできません</dd>
      </dl>
    </section>
  );
}
