import type { DeliveryScreen } from "~/server/delivery/delivery-screen.server";
import { SideScroll } from "~/components/SideScroll";

/**
 * Order lines with no file yet, and the orders left waiting because of them. A line marked お断り
 * or refunded gets no video, so it is never listed here (the summary says what happens to it).
 */
export function MissingLines({
  numberLabel,
  missing,
  incomplete,
}: { numberLabel: string } & Pick<DeliveryScreen, "missing" | "incomplete">) {
  return (
    <section aria-labelledby="missing-title">
      <h2 id="missing-title" className="text-lg font-bold">
        ファイル未設定の明細
      </h2>
      {missing.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600">未対応の注文の明細には、すべてファイルがあります。</p>
      ) : (
        <SideScroll label="ファイルのない明細の表" className="mt-2 rounded-xl shadow-sm">
          <table className="w-full text-sm">
            <thead className="border-b border-zinc-200 text-left text-xs text-zinc-500">
              <tr>
                <th className="px-3 py-2">{numberLabel}</th>
                <th className="px-3 py-2">選手名</th>
                <th className="px-3 py-2">スタイル</th>
                <th className="px-3 py-2">注文</th>
              </tr>
            </thead>
            <tbody>
              {missing.map((line) => (
                <tr
                  key={`${line.athleteId ?? line.athleteName}:${line.athleteNumber}:${line.orientation}`}
                  className="border-b border-zinc-100 last:border-0"
                >
                  <td className="px-3 py-2 font-semibold">{line.athleteNumber}</td>
                  <td className="px-3 py-2">
                    {line.athleteName}
                    {line.athleteId === null ? (
                      <span className="ml-2 text-xs text-red-700">（選手が削除されています）</span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2">{line.style}</td>
                  <td className="px-3 py-2 font-mono text-xs">{line.orderNumbers.join("、")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
      {incomplete.length > 0 ? (
        <p className="mt-2 text-sm text-zinc-600">
          ファイル待ちの注文（未対応のまま残ります）:{" "}
          <span className="font-mono text-xs">{incomplete.map((order) => order.orderNumber).join("、")}</span>
        </p>
      ) : null}
    </section>
  );
}
