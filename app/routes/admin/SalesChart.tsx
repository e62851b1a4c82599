import { formatSignedYen, formatYenShort } from "~/lib/rules/format";

type ChartDay = { day: string; gross: number; refunds: number; net: number; orders: number };

const GROSS_COLOR = "#c8102e"; // the shop's red, as the legend
const REFUND_COLOR = "#71717a"; // zinc-500, as the legend

/**
 * Sales per day as an SVG bar chart, drawn on the server (no chart library, no JS): 売上 above the
 * line, 返金 below it (a refund is drawn on the day it was made, which may be a day without sales),
 * each bar's title giving the day's 純売上. It scales to the width of a phone; labels thin out
 * when there are many days. Without refunds in the period the chart is as it was (no lower half).
 */
export function SalesChart({ days }: { days: ChartDay[] }) {
  if (days.length === 0) return <p className="text-sm text-zinc-500">この期間の売上はありません</p>;
  const width = 640;
  const height = 220;
  const top = 16;
  const bottom = 28;
  const left = 8;
  const maxGross = Math.max(...days.map((d) => d.gross), 1);
  const maxRefund = Math.max(...days.map((d) => d.refunds), 0);
  // One scale for both halves, so a 1,000円 refund is as tall as a 1,000円 sale.
  const scale = (height - top - bottom) / (maxGross + maxRefund);
  const axis = top + maxGross * scale;
  const slot = (width - left * 2) / days.length;
  const bar = Math.max(1, slot * 0.7);
  const labelEvery = Math.ceil(days.length / 8);
  const label = maxRefund > 0 ? "日別の売上と返金" : "日別売上";
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`${label}（売上の最大 ${formatYenShort(maxGross)}${maxRefund > 0 ? `、返金の最大 ${formatYenShort(maxRefund)}` : ""}）`}
      >
        {days.map((d, i) => {
          const x = left + i * slot + (slot - bar) / 2;
          const title = `${d.day}: 売上 ${formatYenShort(d.gross)}（${d.orders}件）${d.refunds > 0 ? ` − 返金 ${formatYenShort(d.refunds)} ＝ 純売上 ${formatSignedYen(d.net)}` : ""}`;
          return (
            <g key={d.day}>
              <title>{title}</title>
              <rect
                x={x}
                y={axis - d.gross * scale}
                width={bar}
                height={d.gross * scale}
                rx={Math.min(3, bar / 3)}
                fill={GROSS_COLOR}
              />
              {d.refunds > 0 ? (
                <rect
                  x={x}
                  y={axis}
                  width={bar}
                  height={d.refunds * scale}
                  rx={Math.min(3, bar / 3)}
                  fill={REFUND_COLOR}
                />
              ) : null}
              {i % labelEvery === 0 ? (
                <text x={x + bar / 2} y={height - 8} fontSize="12" textAnchor="middle" fill="#52525b">
                  {d.day.slice(5).replace("-", "/")}
                </text>
              ) : null}
            </g>
          );
        })}
        <line x1={left} x2={width - left} y1={axis} y2={axis} stroke="#d4d4d8" />
        <text x={width - left} y={top - 4} fontSize="12" textAnchor="end" fill="#52525b">
          {formatYenShort(maxGross)}
        </text>
        {maxRefund > 0 ? (
          <text x={width - left} y={height - bottom - 4} fontSize="12" textAnchor="end" fill="#52525b">
            {formatSignedYen(-maxRefund)}
          </text>
        ) : null}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block h-2.5 w-2.5 rounded-sm bg-[#c8102e]" />
          売上（注文日）
        </span>
        {maxRefund > 0 ? (
          <span className="inline-flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm bg-zinc-500" />
            返金（返金した日）
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
