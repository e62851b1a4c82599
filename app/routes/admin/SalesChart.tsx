import { formatYenSign } from "~/lib/rules/format";

/**
 * Sales per day as an SVG bar chart, drawn on the server (no chart library, no JS).
 * It scales to the width of a phone; labels thin out when there are many days.
 */
export function SalesChart({ days }: { days: { day: string; total: number; orders: number }[] }) {
  if (days.length === 0) return <p className="text-sm text-zinc-500">この期間の売上はありません</p>;
  const width = 640;
  const height = 220;
  const top = 16;
  const bottom = 28;
  const left = 8;
  const max = Math.max(...days.map((d) => d.total), 1);
  const slot = (width - left * 2) / days.length;
  const bar = Math.max(1, slot * 0.7);
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`日別売上（最大 ${formatYenSign(max)}）`}
      >
        <line x1={left} x2={width - left} y1={height - bottom} y2={height - bottom} stroke="#d4d4d8" />
        {days.map((d, i) => {
          const h = ((height - top - bottom) * d.total) / max;
          const x = left + i * slot + (slot - bar) / 2;
          return (
            <g key={d.day}>
              <rect
                x={x}
                y={height - bottom - h}
                width={bar}
                height={h}
                rx={Math.min(3, bar / 3)}
                fill="#c8102e"
              >
                <title>{`${d.day}: ${formatYenSign(d.total)}（${d.orders}件）`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text x={x + bar / 2} y={height - 8} fontSize="12" textAnchor="middle" fill="#52525b">
                  {d.day.slice(5).replace("-", "/")}
                </text>
              ) : null}
            </g>
          );
        })}
        <text x={width - left} y={top - 4} fontSize="12" textAnchor="end" fill="#52525b">
          {formatYenSign(max)}
        </text>
      </svg>
      <figcaption className="sr-only">日別の売上金額</figcaption>
    </figure>
  );
}
