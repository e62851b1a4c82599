import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDate, formatYen } from "~/lib/rules/format";
import type { OrderProgress } from "~/lib/rules/order-progress";
import { positiveId } from "~/lib/rules/params";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";
import { requireUser } from "~/server/auth/users.server";
import { LineRefundBadge } from "~/components/OrderRefunds";

const PROGRESS_TONES: Record<OrderProgress, string> = {
  入金待ち: "bg-amber-100 text-amber-900",
  制作中: "bg-sky-100 text-sky-900",
  納品済み: "bg-emerald-100 text-emerald-900",
  期限切れ: "bg-zinc-200 text-zinc-700",
  返金済み: "bg-zinc-200 text-zinc-700",
};

export const meta: MetaFunction = () => [{ title: "購入履歴 | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  // The history clamps a page past the end to the last one itself.
  const history = purchaseHistory(user.email, positiveId(new URL(request.url).searchParams.get("page")) ?? 1);
  return {
    ...history,
    orders: history.orders.map((order) => ({ ...order, orderedAt: order.orderedAt.getTime() })),
  };
}

export default function PurchaseHistory() {
  const { orders, page, pageCount, total } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">購入履歴</h1>
        {total > 0 ? <p className="text-sm text-zinc-600">全{total}件のご注文</p> : null}
      </div>

      {orders.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-zinc-200 bg-white px-5 py-12 text-center shadow-sm">
          <p className="font-semibold text-zinc-800">まだ購入履歴がありません</p>
          <p className="mt-2 text-sm text-zinc-600">大会を選んで、お子さまの動画をご注文いただけます。</p>
          <Link to="/" className="mt-6 btn-primary">
            大会一覧を見る
          </Link>
        </div>
      ) : (
        <div className="mt-6 space-y-6">
          {orders.map((order) => (
            <section
              key={order.orderNumber}
              aria-labelledby={`order-${order.orderNumber}`}
              className="rounded-2xl border border-zinc-200 bg-white shadow-sm"
            >
              <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-zinc-200 px-4 py-3 sm:px-5">
                <h2 id={`order-${order.orderNumber}`} className="font-bold">
                  注文番号 <span className="tracking-wider">{order.orderNumber}</span>
                </h2>
                <p className="text-sm text-zinc-600">
                  ご注文日 {formatDate(order.orderedAt)}・合計{" "}
                  <span className="font-semibold text-zinc-900">{formatYen(order.totalAmount)}</span>
                </p>
                {order.refunds.refunded + order.refunds.inProgress > 0 ? (
                  // On a line of its own, each amount kept whole, so a phone breaks between them.
                  <p className="w-full text-sm text-zinc-600 sm:text-right">
                    <span className="whitespace-nowrap">
                      返金 −{formatYen(order.refunds.refunded + order.refunds.inProgress)}
                      {order.refunds.inProgress > 0 ? "（手続き中を含む）" : ""}
                    </span>
                    ・
                    <span className="whitespace-nowrap">
                      お支払い額（返金後）{" "}
                      <span className="font-semibold text-zinc-900" data-testid="history-net">
                        {formatYen(order.refunds.net)}
                      </span>
                    </span>
                  </p>
                ) : null}
                <p className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <span
                    className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${PROGRESS_TONES[order.progress]}`}
                  >
                    {order.progress}
                  </span>
                  <Link to={order.statusPath} className="font-semibold text-brand-700 underline">
                    注文状況を見る
                    <span className="sr-only">（注文番号 {order.orderNumber}）</span>
                  </Link>
                  {order.receiptUrl ? (
                    <Link
                      to={order.receiptUrl}
                      className="font-semibold whitespace-nowrap text-brand-700 underline"
                    >
                      領収書
                      <span className="sr-only">（注文番号 {order.orderNumber}）</span>
                    </Link>
                  ) : null}
                </p>
              </header>
              <table className="w-full text-sm">
                <caption className="sr-only">注文番号 {order.orderNumber} の内容</caption>
                <thead className="hidden bg-zinc-50 text-left text-xs whitespace-nowrap text-zinc-600 sm:table-header-group">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-semibold sm:pl-5">
                      大会名
                    </th>
                    <th scope="col" className="px-4 py-2 font-semibold">
                      部門
                    </th>
                    <th scope="col" className="px-4 py-2 font-semibold">
                      {order.numberLabel}
                    </th>
                    <th scope="col" className="px-4 py-2 font-semibold">
                      スタイル
                    </th>
                    <th scope="col" className="px-4 py-2 text-right font-semibold">
                      価格
                    </th>
                    <th scope="col" className="px-4 py-2 font-semibold sm:pr-5">
                      状況
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-200">
                  {order.lines.map((line) => (
                    // On phones each line is a card of label/value rows; from sm up, a table row.
                    <tr key={line.id} className="block px-4 py-3 sm:table-row sm:p-0">
                      <Cell label="大会名" className="sm:pl-5">
                        {line.contestName}
                      </Cell>
                      <Cell label="部門" className="sm:whitespace-nowrap">
                        {line.category}
                      </Cell>
                      <Cell label={order.numberLabel} className="sm:whitespace-nowrap">
                        {line.athleteNumber} {line.athleteName}
                      </Cell>
                      <Cell label="スタイル" className="sm:whitespace-nowrap">
                        {line.style}
                      </Cell>
                      <Cell label="価格" className="sm:text-right sm:whitespace-nowrap">
                        {formatYen(line.price)}
                      </Cell>
                      <Cell label="状況" className="sm:pr-5 sm:whitespace-nowrap">
                        <LineState line={line} />
                      </Cell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </div>
      )}

      {pageCount > 1 ? <Pagination page={page} pageCount={pageCount} /> : null}
    </div>
  );
}

type ShownLine = ReturnType<typeof useLoaderData<typeof loader>>["orders"][number]["lines"][number];

/**
 * Where a line stands: its download once delivered; お断り and its refund (返金済み /
 * 返金手続き中) otherwise, never 納品待ち for a video that will not come; 納品待ち else.
 */
function LineState({ line }: { line: ShownLine }) {
  const waiting = !line.downloadUrl && !line.refused && !line.refundState;
  return (
    <span className="flex flex-wrap items-center gap-1.5" data-testid="line-state">
      {line.downloadUrl ? (
        <a
          href={line.downloadUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-semibold whitespace-nowrap text-brand-700 underline"
        >
          ダウンロード
          <span className="sr-only">（新しいタブで開きます）</span>
        </a>
      ) : null}
      {line.refused ? (
        <span className="inline-block rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-red-800">
          お断り
        </span>
      ) : null}
      {line.refundState ? <LineRefundBadge state={line.refundState} amount={line.refundedAmount} /> : null}
      {waiting ? (
        <span className="inline-block rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-orange-800">
          納品待ち
        </span>
      ) : null}
    </span>
  );
}

function Cell({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td
      className={`grid grid-cols-[6.5rem_minmax(0,1fr)] items-baseline gap-3 py-0.5 break-words sm:table-cell sm:px-4 sm:py-3 sm:align-top ${className}`}
    >
      {/* The column's heading, shown beside the value on phones (the table head is hidden there). */}
      <span className="text-xs text-zinc-500 sm:hidden">{label}</span>
      <span>{children}</span>
    </td>
  );
}

function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1).filter(
    (n) => n === 1 || n === pageCount || Math.abs(n - page) <= 2,
  );
  return (
    <nav aria-label="購入履歴のページ" className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={`?page=${page - 1}`} className="btn-secondary min-h-10 px-3 py-1.5 text-sm" rel="prev">
          前へ
        </Link>
      ) : null}
      {pages.map((n, index) => (
        <span key={n} className="contents">
          {index > 0 && n - (pages[index - 1] ?? n) > 1 ? (
            <span className="px-1 text-zinc-500">…</span>
          ) : null}
          <Link
            to={`?page=${n}`}
            aria-current={n === page ? "page" : undefined}
            aria-label={`${n}ページ目`}
            className={`inline-flex min-h-10 min-w-10 items-center justify-center rounded-lg border text-sm font-semibold ${n === page ? "border-brand-600 bg-brand-600 text-white" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-100"}`}
          >
            {n}
          </Link>
        </span>
      ))}
      {page < pageCount ? (
        <Link to={`?page=${page + 1}`} className="btn-secondary min-h-10 px-3 py-1.5 text-sm" rel="next">
          次へ
        </Link>
      ) : null}
    </nav>
  );
}
