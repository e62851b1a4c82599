import { formatSignedYen, formatYenShort } from "~/lib/rules/format";
import { SideScroll } from "~/components/SideScroll";

type Figures = {
  listGross: number;
  discounts: number;
  gross: number;
  refunds: number;
  net: number;
  orders: number;
};

/** A refund or a discount: taken off, so written negative; none as a dash. */
const minusText = (amount: number) => (amount > 0 ? formatSignedYen(-amount) : "—");

function FigureCells({ row }: { row: Figures }) {
  return (
    <>
      <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">{row.orders}</td>
      <td className="py-2 pr-3 text-right whitespace-nowrap text-zinc-600 tabular-nums">
        {formatYenShort(row.listGross)}
      </td>
      <td className="py-2 pr-3 text-right whitespace-nowrap text-zinc-600 tabular-nums">
        {minusText(row.discounts)}
      </td>
      <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">{formatYenShort(row.gross)}</td>
      <td className="py-2 pr-3 text-right whitespace-nowrap text-zinc-600 tabular-nums">
        {minusText(row.refunds)}
      </td>
      <td className="py-2 text-right font-semibold whitespace-nowrap tabular-nums">
        {formatSignedYen(row.net)}
      </td>
    </>
  );
}

function FigureHeads({ first }: { first: string }) {
  return (
    <thead className="border-b border-zinc-200 text-zinc-500">
      <tr>
        <th className="py-2 pr-3 font-medium">{first}</th>
        <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">注文数</th>
        <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">総額（定価）</th>
        <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">割引</th>
        <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">売上</th>
        <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">返金</th>
        <th className="py-2 text-right font-medium whitespace-nowrap">純売上（税込）</th>
      </tr>
    </thead>
  );
}

/**
 * The chart's figures as numbers, folded away (a <details>, so it opens without JS): only the days
 * with a sale or a refund, the chart already showing the empty ones.
 */
export function SalesDayTable({ days }: { days: (Figures & { day: string })[] }) {
  const active = days.filter((day) => day.gross > 0 || day.refunds > 0);
  if (active.length === 0) return null;
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-zinc-700">日別の内訳（{active.length}日）</summary>
      <SideScroll label="日別の内訳の表" className="mt-3">
        <table className="w-full min-w-[40rem] text-left">
          <FigureHeads first="日付" />
          <tbody className="divide-y divide-zinc-100">
            {active.map((row) => (
              <tr key={row.day}>
                <td className="py-2 pr-3 whitespace-nowrap">{row.day}</td>
                <FigureCells row={row} />
              </tr>
            ))}
          </tbody>
        </table>
      </SideScroll>
    </details>
  );
}

/** 大会別: a table wider than a phone, scrolled sideways; with no orders, one line in full view. */
export function SalesContestTable({ contests }: { contests: (Figures & { contestName: string })[] }) {
  if (contests.length === 0) return <p className="mt-3 text-sm text-zinc-500">該当する注文はありません</p>;
  return (
    <SideScroll label="大会別の表" className="mt-3">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <FigureHeads first="大会名" />
        <tbody className="divide-y divide-zinc-100">
          {contests.map((row) => (
            <tr key={row.contestName}>
              <td className="py-2 pr-3">{row.contestName || "（大会名なし）"}</td>
              <FigureCells row={row} />
            </tr>
          ))}
        </tbody>
      </table>
    </SideScroll>
  );
}

/** クーポン別: each coupon the filter's orders used, how often, and the discount it gave. */
export function SalesCouponTable({
  coupons,
}: {
  coupons: { code: string; uses: number; discount: number }[];
}) {
  if (coupons.length === 0)
    return <p className="mt-3 text-sm text-zinc-500">クーポンを使った注文はありません</p>;
  return (
    <SideScroll label="クーポン別の表">
      <table className="w-full min-w-[20rem] text-left text-sm" data-testid="sales-coupons">
        <thead className="border-b border-zinc-200 text-zinc-500">
          <tr>
            <th className="py-2 pr-3 font-medium">クーポンコード</th>
            <th className="py-2 pr-3 text-right font-medium whitespace-nowrap">利用数</th>
            <th className="py-2 text-right font-medium whitespace-nowrap">割引額（税込）</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {coupons.map((row) => (
            <tr key={row.code}>
              <td className="py-2 pr-3 font-mono break-all">{row.code}</td>
              <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">{row.uses}件</td>
              <td className="py-2 text-right whitespace-nowrap tabular-nums">{minusText(row.discount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </SideScroll>
  );
}
