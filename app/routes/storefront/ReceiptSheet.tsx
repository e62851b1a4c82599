import { formatYenSign } from "~/lib/rules/format";
import { receiptItemGroups, receiptLineItem, receiptSumRows } from "~/lib/rules/receipt";
import type { Receipt } from "~/server/receipts/receipts.server";

/**
 * The 領収書 as a sheet of paper: on screen a white page, in print an A4 sheet (the shop's header
 * and footer and the page's buttons are hidden; see `.receipt-sheet` in tailwind.css). The same
 * layout as the PDF (app/server/receipts/receipt-pdf.server.ts).
 */
export function ReceiptSheet({ receipt }: { receipt: Receipt }) {
  const taxLine = `${receipt.taxRatePercent}%対象 ${formatYenSign(receipt.total)}（うち消費税 ${formatYenSign(receipt.tax)}）`;
  return (
    <article
      aria-labelledby="receipt-title"
      className="receipt-sheet relative mx-auto w-full max-w-[210mm] rounded-sm border border-zinc-300 bg-white px-5 py-6 text-zinc-900 shadow-sm sm:px-12 sm:py-12 print:max-w-none print:border-0 print:p-0 print:shadow-none print:[page:receipt]"
    >
      <div className="flex items-start justify-between gap-4">
        <div>
          {receipt.reissue ? (
            <p className="inline-block rounded border-2 border-red-700 px-2 py-0.5 text-sm font-bold text-red-700">
              再発行
            </p>
          ) : null}
        </div>
        <dl className="grid grid-cols-[auto_auto] gap-x-2 text-right text-xs sm:text-sm">
          <dt>No.</dt>
          <dd className="tabular-nums">{receipt.orderNumber}</dd>
          <dt>発行日</dt>
          <dd>{receipt.issuedOn}</dd>
        </dl>
      </div>

      <h1 id="receipt-title" className="mt-4 text-center text-3xl font-bold tracking-[0.5em] sm:text-4xl">
        {receipt.title}
      </h1>
      {receipt.qualifiedInvoice ? (
        <p className="mt-1 text-center text-sm text-zinc-600">（適格簡易請求書）</p>
      ) : null}

      {/* The seller across from the addressee, as in the PDF: on the first sheet with the amount, however long the items. */}
      <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between sm:gap-8">
        <p className="flex w-full max-w-md items-end justify-between gap-3 border-b border-zinc-900 pb-1 sm:mt-3">
          <span className="min-h-7 text-lg font-bold break-all sm:text-xl" data-testid="receipt-addressee">
            {receipt.addressee}
          </span>
          <span className="shrink-0 text-base">様</span>
        </p>
        <address className="text-sm not-italic sm:w-72 sm:shrink-0">
          <span className="block font-bold sm:text-base">{receipt.seller.name}</span>
          <span className="mt-0.5 block text-xs">{receipt.seller.address}</span>
          {receipt.seller.invoiceNumber ? (
            <span className="mt-0.5 block text-xs">登録番号 {receipt.seller.invoiceNumber}</span>
          ) : null}
        </address>
      </div>

      <div className="mt-6 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-2 border-zinc-900 px-4 py-3 sm:px-6">
        <span className="text-sm sm:text-base">金額</span>
        <span className="text-3xl font-bold tabular-nums sm:text-4xl" data-testid="receipt-total">
          {formatYenSign(receipt.total)}-
        </span>
        <span className="text-sm">（税込）</span>
      </div>

      <div className="mt-4 space-y-1 text-sm sm:text-base">
        <p>但し {receipt.purpose}</p>
        <p>上記正に領収いたしました。</p>
        <p data-testid="receipt-tax">{taxLine}</p>
        {receipt.refunds.map((refund, index) => (
          // The refund in words too: the amount above is what is left after it.
          <p key={index} data-testid="receipt-refund-sentence">
            {refund.sentence}
          </p>
        ))}
      </div>

      <table className="mt-8 w-full border-collapse text-sm">
        <caption className="mb-1 text-left font-bold">内訳</caption>
        <thead>
          <tr className="border-y border-zinc-400 text-xs text-zinc-600">
            <th scope="col" className="py-1.5 pl-1 text-left font-normal">
              品目
            </th>
            <th scope="col" className="py-1.5 pr-1 text-right font-normal whitespace-nowrap">
              金額（税込）
            </th>
          </tr>
        </thead>
        {receiptItemGroups(receipt.lines).map((group, groupIndex) => (
          <tbody key={groupIndex}>
            <tr>
              <th scope="rowgroup" colSpan={2} className="pt-2 pb-1 pl-1 text-left font-bold">
                {group.contestName}
              </th>
            </tr>
            {group.lines.map((line, index) => (
              <tr key={index} className="border-b border-zinc-300 align-top">
                <td className="py-2 pr-3 pl-4">
                  {receiptLineItem(line)}
                  {line.refunded ? (
                    <span className="ml-1 text-xs font-bold whitespace-nowrap">（返金済み）</span>
                  ) : null}
                </td>
                <td className="py-2 pr-1 text-right whitespace-nowrap tabular-nums">
                  {formatYenSign(line.listPrice)}
                </td>
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot>
          {receiptSumRows(receipt).map((row, index) => (
            <tr key={index}>
              <th scope="row" className={`${index === 0 ? "pt-2" : "pt-1"} pl-1 text-left font-normal`}>
                {row.label}
              </th>
              <td
                className={`${index === 0 ? "pt-2" : "pt-1"} pr-1 text-right tabular-nums`}
                data-testid={row.kind === "subtotal" ? undefined : `receipt-${row.kind}`}
              >
                {row.amount < 0 ? `−${formatYenSign(-row.amount)}` : formatYenSign(row.amount)}
              </td>
            </tr>
          ))}
          <tr className="font-bold">
            <th scope="row" className="pt-2 pl-1 text-left">
              合計
            </th>
            <td className="pt-2 pr-1 text-right tabular-nums">{formatYenSign(receipt.total)}</td>
          </tr>
          <tr>
            <td colSpan={2} className="pt-1 pr-1 text-right text-xs text-zinc-600">
              （{receipt.taxRatePercent}%対象 {formatYenSign(receipt.total)} うち消費税{" "}
              {formatYenSign(receipt.tax)}）
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="mt-2 pl-1 text-xs text-zinc-600">お支払い日 {receipt.paidOn}</p>

      {receipt.reissue ? (
        <p className="mt-8 text-xs text-zinc-600">
          この領収書は再発行したものです（初回発行日 {receipt.firstIssuedOn}）。
        </p>
      ) : null}
    </article>
  );
}
