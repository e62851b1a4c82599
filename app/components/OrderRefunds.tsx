import { formatDate, formatYen, formatYenShort } from "~/lib/rules/format";
import type { LineRefundState, RefundTotals } from "~/lib/rules/refunds";

/**
 * An order's refunds on the customer's pages (注文状況, 購入履歴): a line's badge, the totals after
 * refunds and the list of refunds with when the money arrives. The amounts come from
 * server/refunds/customer-refunds.server.ts, so every page shows the same ones.
 */

const BADGE_TONES: Record<LineRefundState, string> = {
  返金済み: "bg-emerald-100 text-emerald-900",
  返金手続き中: "bg-amber-100 text-amber-900",
};

/** 返金済み 5,000円 / 返金手続き中 5,000円 beside a line. */
export function LineRefundBadge({ state, amount }: { state: LineRefundState; amount: number }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${BADGE_TONES[state]}`}
      data-testid="line-refund"
    >
      {state} {formatYenShort(amount)}
    </span>
  );
}

/**
 * The rows under 合計: 返金 −N円 (and 返金（手続き中） while on its way), then お支払い額（返金後）.
 * Nothing when the order has no refund.
 */
export function RefundTotalRows({ refunds }: { refunds: RefundTotals }) {
  if (refunds.refunded === 0 && refunds.inProgress === 0) return null;
  return (
    <>
      {refunds.refunded > 0 ? (
        <TotalRow label="返金" amount={`−${formatYen(refunds.refunded)}`} testId="order-refunded" />
      ) : null}
      {refunds.inProgress > 0 ? (
        <TotalRow
          label="返金（手続き中）"
          amount={`−${formatYen(refunds.inProgress)}`}
          testId="order-refund-in-progress"
        />
      ) : null}
      <li className="flex items-baseline justify-between gap-4 bg-zinc-50 px-4 py-3">
        <p className="font-bold">お支払い額（返金後）</p>
        <p className="text-lg font-bold whitespace-nowrap" data-testid="order-net">
          {formatYen(refunds.net)}
        </p>
      </li>
    </>
  );
}

function TotalRow({ label, amount, testId }: { label: string; amount: string; testId: string }) {
  return (
    <li className="flex items-baseline justify-between gap-4 bg-zinc-50 px-4 py-2 text-sm">
      <p>{label}</p>
      <p className="font-semibold whitespace-nowrap text-emerald-800" data-testid={testId}>
        {amount}
      </p>
    </li>
  );
}

type ShownRefund = { amount: number; state: LineRefundState; on: string | number | Date; reason: string };

/** 返金について: each refund (day, amount, state, reason) and when the money arrives. */
export function RefundDetails({ refunds, arrival }: { refunds: ShownRefund[]; arrival: string | null }) {
  if (refunds.length === 0) return null;
  return (
    <section
      aria-labelledby="refunds-heading"
      className="mt-6 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-950"
    >
      <h2 id="refunds-heading" className="font-bold">
        返金について
      </h2>
      <ul className="mt-2 space-y-2 text-sm">
        {refunds.map((refund, index) => (
          <li key={index} className="rounded-lg bg-white/70 px-3 py-2">
            <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <span>{formatDate(new Date(refund.on))}</span>
              <span className="font-bold whitespace-nowrap">{formatYen(refund.amount)}</span>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${BADGE_TONES[refund.state]}`}
              >
                {refund.state}
              </span>
            </p>
            {refund.reason ? <p className="mt-1 break-words text-zinc-700">理由: {refund.reason}</p> : null}
          </li>
        ))}
      </ul>
      {arrival ? <p className="mt-3 text-sm leading-relaxed">{arrival}</p> : null}
    </section>
  );
}
