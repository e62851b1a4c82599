import { nothingToDeliverReason, WITHOUT_VIDEO_LABELS } from "~/lib/rules/lines-without-video";
import type { OpenOrder } from "~/server/delivery/plan/open-orders.server";

/**
 * What 一括納品 does with the lines that get no video (お断り, 返金): the ready orders that have
 * some, each with the videos it is delivered with and the lines it is not.
 */
export function WithoutVideoNotes({ orders, numberLabel }: { orders: OpenOrder[]; numberLabel: string }) {
  const withSome = orders.filter((order) => order.withoutVideo.length > 0);
  if (withSome.length === 0) return null;
  return (
    <section
      aria-labelledby="without-video-title"
      className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-800"
    >
      <h3 id="without-video-title" className="font-semibold">
        お断り・返金の明細には動画を送りません
      </h3>
      <ul className="mt-1 space-y-1">
        {withSome.map((order) => (
          <li key={order.id} className="break-words">
            <span className="font-mono text-xs">{order.orderNumber}</span>（{order.customerName}）: 動画{" "}
            {order.videoCount} 本を納品します。
            {order.withoutVideo.map((line) => (
              <span key={line.lineId} className="block pl-3 text-zinc-600">
                {line.lineNumber}（{numberLabel} {line.athleteNumber} {line.athleteName}・{line.style}）は
                {WITHOUT_VIDEO_LABELS[line.reason]}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The warning for open orders with no video to send (every line お断り or refunded): 一括納品
 * never delivers them, and closes one as 対応済み (no mail) only when its box is ticked, so an
 * order is never closed by the button alone.
 */
export function NothingToDeliver({ orders }: { orders: OpenOrder[] }) {
  if (orders.length === 0) return null;
  return (
    <fieldset className="rounded-lg border border-amber-400 bg-amber-50 px-3 pt-1 pb-3 text-sm text-amber-950">
      <legend className="rounded bg-amber-50 px-1 font-bold">
        納品する動画がない注文（{orders.length} 件）
      </legend>
      <p>
        すべての明細が返金済みまたはお断りのため、お送りする動画がありません。一括納品ではこれらを納品せず、チェックを入れた注文だけを動画なしで対応済みにします（お客様にメールは送りません）。
      </p>
      <ul className="mt-2 space-y-2">
        {orders.map((order) => (
          <li key={order.id}>
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                name="closeOrderId"
                value={order.id}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
              />
              <span className="break-words">
                注文 <span className="font-mono">{order.orderNumber}</span>（{order.customerName}・
                {nothingToDeliverReason(order.withoutVideo.map((line) => line.reason))}）を対応済みにする
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
