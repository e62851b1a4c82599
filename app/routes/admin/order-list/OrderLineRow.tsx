import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import { VIDEO_ACCEPT } from "~/lib/rules/video-files";
import type { DeliverError, RefusalError } from "~/server/orders/admin/order-list-actions.server";
import type { OrderGroup, OrderGroupLine } from "~/server/orders/admin/order-list.server";
import { RefundBadge } from "../order/OrderLines";
import { lineAnchor } from "./order-list-link";
import { RefusalControl } from "./RefusalControl";

/** The line table's headings; an open order's table has no 動画 column (its video cell takes the row). */
export const LINE_COLUMNS = ["明細番号", "大会", "部門", "番号", "スタイル", "価格", "動画"];

/** The grid of the line table, the same for its heading row and every line. */
export function lineGridClass(pending: boolean) {
  return pending ? "lg:grid-cols-6" : "lg:grid-cols-7";
}

type LineRowProps = {
  group: OrderGroup;
  line: OrderGroupLine;
  /** The order is in the 未対応 tab: its lines take a URL or a video, and may be refused. */
  pending: boolean;
  /** This order's refused 納品, whose typed URLs are shown again. */
  deliverError: DeliverError | null;
  /** This line's refused お断り. */
  refusalError: RefusalError | null;
  /** The list's refund key for お断り's refund. */
  refundKey: string;
  /** The file 納品ファイル has for this line's athlete and style: 納品 uses it unless another is given. */
  tabFile: string | null;
};

/** One line of an order: what was bought, and its video (to give, given, or refused). */
export function OrderLineRow(props: LineRowProps) {
  const { group, line, pending, refusalError, refundKey } = props;
  return (
    <div
      id={lineAnchor(line.id)}
      role="row"
      className={`grid scroll-mt-4 grid-cols-2 gap-x-3 gap-y-1 border-b border-zinc-100 py-3 last:border-0 lg:items-center ${lineGridClass(pending)}`}
    >
      <span role="cell" className="font-mono text-xs">
        {line.lineNumber}
      </span>
      <span role="cell">{line.contestName}</span>
      <span role="cell">{line.category}</span>
      <span role="cell">
        {/* The label the order copied when it was made (numberLabelOf): never empty since migration 0018. */}
        {group.bibNumberLabel} {line.athleteNumber}
        <span className="block text-xs text-zinc-500">{line.athleteName}</span>
      </span>
      <span role="cell">{line.style}</span>
      <span role="cell" className="font-semibold">
        {line.listPrice !== null && line.listPrice > line.price ? (
          // Discounted: what was paid, with the list price struck through beside it.
          <del className="mr-1 text-xs font-normal text-zinc-500">
            <span className="sr-only">通常価格 </span>
            {formatYenShort(line.listPrice)}
          </del>
        ) : null}
        {formatYenShort(line.price)}
        {line.refused ? (
          <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-700">お断り</span>
        ) : null}
        {line.refundState ? (
          <span className="ml-2 inline-block">
            <RefundBadge label={line.refundState} />
          </span>
        ) : line.refused && group.paymentStatus === "paid" ? (
          // Refused without its refund: marked, so the money owed is not forgotten.
          <span className="ml-2 inline-block">
            <RefundBadge label="未返金" />
          </span>
        ) : null}
      </span>
      {/* With the order still open the video cell takes the row's whole width, so a pasted URL can be read. */}
      <span role="cell" className={`col-span-2 min-w-0 ${pending ? "lg:col-span-6" : "lg:col-span-1"}`}>
        <LineVideo {...props} />
        {pending && group.paymentStatus === "paid" && !line.refused ? (
          <RefusalControl
            lineNumber={line.lineNumber}
            lineId={line.id}
            price={line.price}
            // A line already refunded (from its order page) is not refunded again.
            refundKey={line.refundState ? null : `${refundKey}:${line.id}`}
            error={refusalError}
          />
        ) : null}
      </span>
    </div>
  );
}

/**
 * The line's video cell: the note of a refused line; for an open order the URL or file to
 * deliver; for a delivered one its video and whether it was downloaded (with リセット).
 */
function LineVideo({ group, line, pending, deliverError, tabFile }: LineRowProps) {
  if (line.refused)
    return (
      <span className="block rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">
        <span className="font-semibold">お客様へのお知らせ: </span>
        <span className="break-words whitespace-pre-line">{line.refusalNote || "（なし）"}</span>
        {/* A refunded line stays refused: its money is on its way back. */}
        {pending && group.paymentStatus === "paid" && !line.refundState ? (
          <button
            type="submit"
            form={`withdraw-${line.id}`}
            name="intent"
            value="withdraw-refusal"
            formNoValidate
            className="ml-3 text-xs font-semibold text-red-800 underline"
            aria-label={`${line.lineNumber} のお断りを取り消す`}
          >
            お断りを取り消す
          </button>
        ) : null}
      </span>
    );
  if (pending && line.withoutVideo === "返金")
    return (
      <span className="block rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
        返金済みのため、この明細の動画は送りません。
      </span>
    );
  if (pending && tabFile)
    return (
      <span className="block space-y-2">
        <span className="block rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          納品ファイル: <span className="font-semibold break-all">{tabFile}</span>
          <span className="block text-xs">納品ファイルで照合済みです。URLや動画の入力は要りません。</span>
        </span>
        {/* Open again when a refused 納品 came back with a URL typed here. */}
        <details open={Boolean(deliverError?.urls[`url-${line.id}`])}>
          <summary className="cursor-pointer text-xs text-zinc-600 underline">
            別のURL・動画ファイルで納品する
          </summary>
          <span className="mt-2 block">
            <DeliveryInputs line={line} deliverError={deliverError} />
          </span>
        </details>
      </span>
    );
  if (pending) return <DeliveryInputs line={line} deliverError={deliverError} />;
  if (line.videoDownloadUrl || line.deliveryFileId)
    return (
      <span className="flex flex-wrap items-center gap-2">
        {line.videoDownloadUrl ? (
          <a
            href={line.videoDownloadUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-brand-700 underline"
          >
            動画URL
          </a>
        ) : (
          <span>ファイル納品</span>
        )}
        <span className="text-xs text-zinc-500">
          {line.downloadStartedAt ? `DL ${formatDateTime(new Date(line.downloadStartedAt))}` : "未DL"}
        </span>
        {line.downloadStartedAt ? (
          <button
            type="submit"
            name="intent"
            value={`reset-line-${line.id}`}
            className="text-xs text-zinc-600 underline"
            aria-label={`${line.lineNumber} のダウンロード回数をリセット`}
          >
            リセット
          </button>
        ) : null}
      </span>
    );
  return (
    <span className="text-zinc-500">{group.paymentStatus === "paid" ? "未設定" : "お支払い後に制作"}</span>
  );
}

/** A line's download URL, or a video file attached instead (納品 posts them with the order's form). */
function DeliveryInputs({ line, deliverError }: Pick<LineRowProps, "line" | "deliverError">) {
  return (
    <span className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <span className="min-w-0 flex-1">
        <label htmlFor={`url-${line.id}`} className="sr-only">
          {line.lineNumber} のダウンロードURL
        </label>
        <input
          id={`url-${line.id}`}
          name={`url-${line.id}`}
          type="url"
          placeholder="https://example.com/video.mp4"
          defaultValue={
            deliverError ? (deliverError.urls[`url-${line.id}`] ?? "") : (line.videoDownloadUrl ?? "")
          }
          className="field-input min-h-9 w-full py-1 text-sm"
        />
      </span>
      <label className="block text-xs text-zinc-600 sm:w-56 sm:shrink-0">
        または動画ファイル
        <input
          type="file"
          name={`file-${line.id}`}
          accept={VIDEO_ACCEPT}
          className="mt-0.5 block w-full text-xs"
          aria-label={`${line.lineNumber} の動画ファイル`}
        />
      </label>
    </span>
  );
}
