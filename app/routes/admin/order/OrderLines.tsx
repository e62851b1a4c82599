import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import { isDiscounted, regularPrice } from "~/lib/rules/order-discounts";
import type { OrderPage } from "~/server/orders/admin/order-page.server";

/** The order's lines: what each is, its paid price, and where it stands (お断り with its note, its refund). */
export function OrderLines({ lines }: { lines: OrderPage["lines"] }) {
  return (
    <section aria-labelledby="lines-title" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="lines-title" className="text-lg font-bold">
        明細
      </h2>
      <ul className="mt-2 divide-y divide-zinc-100">
        {lines.map((line) => (
          <li key={line.id} data-line={line.lineNumber} className="py-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <p className="min-w-0">
                <span className="mr-2 font-mono text-xs text-zinc-500">{line.lineNumber}</span>
                <span className="break-words">
                  {line.category}・{line.athlete}・{line.style}
                </span>
              </p>
              <p className="flex flex-wrap items-center gap-2">
                {isDiscounted(line) ? (
                  <del className="text-xs text-zinc-500">
                    <span className="sr-only">通常価格 </span>
                    {formatYenShort(regularPrice(line))}
                  </del>
                ) : null}
                <span className="font-semibold">{formatYenShort(line.price)}</span>
                {/* A refused line is not made: its own 未対応 would read as work still to do. */}
                {line.refused ? (
                  <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-700">
                    お断り
                  </span>
                ) : (
                  <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700">
                    {line.status}
                  </span>
                )}
                {line.refundState ? (
                  <RefundBadge label={line.refundState} />
                ) : line.refused ? (
                  // Refused without its refund: the money owed is marked until it is refunded.
                  <RefundBadge label="未返金" />
                ) : null}
              </p>
            </div>
            {isDiscounted(line) ? (
              <p className="mt-1 text-xs text-red-700" data-testid="line-discounts">
                {line.discounts
                  .map((discount) => `${discount.name} −${formatYenShort(discount.amount)}`)
                  .join("、")}
              </p>
            ) : null}
            {line.refundState && !line.refused && line.status === "未対応" ? (
              <p className="mt-1 text-xs text-amber-900" data-testid="refunded-still-to-make">
                返金しましたが、この明細は制作・納品の対象のままです。制作しない場合は、注文一覧でお断りにしてください。
              </p>
            ) : null}
            {line.downloadRetryAt ? (
              <p className="mt-1 text-xs text-emerald-800" data-testid="download-retry">
                再ダウンロードを1回許可（未完了のため）:{" "}
                <span className="whitespace-nowrap">{formatDateTime(new Date(line.downloadRetryAt))}</span>
              </p>
            ) : null}
            {line.refused ? (
              <p className="mt-1 rounded-lg bg-red-50 px-3 py-2 text-xs break-words whitespace-pre-line text-red-900">
                <span className="font-semibold">お客様へのお知らせ: </span>
                {line.refusalNote || "（なし）"}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 返金済み in green, anything still on its way (返金手続き中, 一部返金) in amber; never broken inside a narrow cell. */
export function RefundBadge({ label }: { label: string }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-bold whitespace-nowrap ${
        label === "返金済み" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-900"
      }`}
    >
      {label}
    </span>
  );
}
