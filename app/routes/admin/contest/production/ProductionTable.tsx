import type { ProductionState } from "~/lib/rules/production-list";
import { SideScroll } from "~/components/SideScroll";

/** One row of the 制作リスト as the page shows it (the loader's words and dates). */
export type ProductionTableRow = {
  key: string;
  athleteNumber: number;
  athleteName: string;
  category: string;
  style: string;
  lineCount: number;
  deliveredCount: number;
  firstOrderedOn: string;
  state: ProductionState;
  flags: string[];
};

const STATE_STYLES: Record<ProductionState, string> = {
  未納品: "border-zinc-300 bg-white text-zinc-800",
  一部納品: "border-amber-300 bg-amber-50 text-amber-900",
  納品済み: "border-emerald-300 bg-emerald-50 text-emerald-800",
};

const HEADER = "px-3 py-2 font-medium print:px-2 print:py-1";
const CELL = "px-3 py-2 print:px-2 print:py-1";

function FlagBadge({ flag }: { flag: string }) {
  return (
    <span className="inline-block rounded border border-red-300 bg-red-100 px-1.5 py-0.5 text-xs font-bold whitespace-nowrap text-red-800">
      {flag}
    </span>
  );
}

/**
 * What the red badges mean. A list with a name, so a screen reader says what it is (an
 * aria-label on a <p> is not announced).
 */
export function FlagLegend() {
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-700" aria-label="目印の説明">
      <li className="inline-flex items-center gap-1.5">
        <FlagBadge flag="受注停止" />
        選手の動画が受注停止
      </li>
      <li className="inline-flex items-center gap-1.5">
        <FlagBadge flag="お断り" />
        注文一覧でお断りの明細あり
      </li>
    </ul>
  );
}

/**
 * The list itself. On a phone it is wider than the screen: it scrolls sideways inside its box,
 * whose right edge is shaded while more of it lies beyond, with a hint above it (bug 6 of issue
 * 29: the table was cut at the right edge with no sign that it scrolls). The box takes the
 * focus, so the keyboard scrolls it too.
 */
export function ProductionTable({
  rows,
  numberLabel,
  caption,
}: {
  rows: ProductionTableRow[];
  numberLabel: string;
  caption: string;
}) {
  return (
    <div>
      <p id="production-table-hint" className="mb-1 text-xs text-zinc-600 md:hidden print:hidden">
        横にスクロールできます →
      </p>
      <SideScroll
        label="制作リストの表"
        describedBy="production-table-hint"
        className="rounded-xl shadow-sm print:overflow-visible print:rounded-none print:bg-none print:shadow-none"
      >
        <table className="w-full min-w-[40rem] text-left text-sm print:min-w-0 print:text-[10pt] print:[print-color-adjust:exact]">
          <caption className="sr-only">{caption}</caption>
          <thead className="table-header-group border-b border-zinc-200 text-zinc-600 print:border-zinc-500 print:text-zinc-900">
            <tr>
              <th scope="col" className={`${HEADER} whitespace-nowrap`}>
                {numberLabel}
              </th>
              <th scope="col" className={HEADER}>
                選手名
              </th>
              <th scope="col" className={`${HEADER} whitespace-nowrap`}>
                部門
              </th>
              <th scope="col" className={`${HEADER} whitespace-nowrap`}>
                スタイル
              </th>
              <th scope="col" className={`${HEADER} text-right whitespace-nowrap`}>
                注文数
              </th>
              <th scope="col" className={`${HEADER} whitespace-nowrap`}>
                最初の注文日
              </th>
              <th scope="col" className={HEADER}>
                状態
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 print:divide-zinc-300">
            {rows.map((row) => (
              <tr
                key={row.key}
                // A see-through red, so the box's shaded edge shows on these rows too.
                className={`break-inside-avoid ${row.flags.length > 0 ? "bg-red-500/[.07]" : ""}`}
                data-flagged={row.flags.length > 0 || undefined}
              >
                <td className={`${CELL} font-semibold tabular-nums`}>{row.athleteNumber}</td>
                <td className={`${CELL} min-w-40 print:min-w-0`}>
                  <span className="mr-2">{row.athleteName}</span>
                  {row.flags.map((flag) => (
                    <span key={flag} className="mr-1">
                      <FlagBadge flag={flag} />
                    </span>
                  ))}
                </td>
                <td className={`${CELL} whitespace-nowrap`}>{row.category}</td>
                <td className={`${CELL} whitespace-nowrap`}>{row.style}</td>
                <td className={`${CELL} text-right tabular-nums`}>{row.lineCount}</td>
                <td className={`${CELL} whitespace-nowrap tabular-nums`}>{row.firstOrderedOn}</td>
                <td className={CELL}>
                  <span
                    className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${STATE_STYLES[row.state]}`}
                  >
                    {row.state}
                    {row.state === "一部納品" ? ` ${row.deliveredCount}/${row.lineCount}` : ""}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </SideScroll>
    </div>
  );
}
