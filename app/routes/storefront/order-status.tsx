import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { contactPath } from "~/lib/rules/download-links";
import { formatDate, formatDateTime, formatDayWithWeekday, formatYen } from "~/lib/rules/format";
import type { OrderProgress } from "~/lib/rules/order-progress";
import { receiptPath } from "~/lib/rules/receipt";
import { orderStatusByToken } from "~/server/orders/customer/order-status.server";
import { paymentProvider } from "~/server/payments/index.server";
import { currentAdmin } from "~/server/auth/admin-session.server";
import { KonbiniVoucher } from "~/components/KonbiniVoucher";
import { RefusalNotice } from "~/components/RefusalNotice";
import { DiscountRows, LineDiscounts, LinePrice } from "~/components/PriceBreakdown";
import { LineRefundBadge, RefundDetails, RefundTotalRows } from "~/components/OrderRefunds";
import { KonbiniTestActions } from "~/components/KonbiniTestActions";

export const meta: MetaFunction = () => [
  { title: "注文状況 | コンテスト動画ショップ" },
  { name: "robots", content: "noindex" },
];

// The token is the only key to the page: never cached, never indexed (the Referer is kept to
// this site by the security headers, see referrerPolicy in security-headers.server.ts).
const HEADERS = { "Cache-Control": "no-store" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const order = orderStatusByToken(params.token ?? "");
  // The same answer for a malformed token as for an unknown one: nothing to learn by guessing.
  if (!order)
    return data({ order: null, token: null, konbiniTest: false }, { status: 404, headers: HEADERS });
  // テストモード: the page offers a logged-in admin to play the store payment and the deadline
  // (KonbiniTestActions); the link alone pays nothing (the action asks for the admin too).
  const konbiniTest =
    paymentProvider().mode === "test" &&
    order.progress === "入金待ち" &&
    (await currentAdmin(request)) !== null;
  return data({ order, token: params.token ?? null, konbiniTest }, { headers: HEADERS });
}

export default function OrderStatusPage() {
  const { order, token, konbiniTest } = useLoaderData<typeof loader>();
  if (!order) return <StatusNotFound />;
  const label = order.numberLabel;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold">注文状況</h1>

      <dl className="mt-4 grid grid-cols-[6.5rem_minmax(0,1fr)] gap-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm">
        <dt className="text-zinc-500">注文番号</dt>
        <dd className="font-semibold tracking-wider" data-testid="order-number">
          {order.orderNumber}
        </dd>
        <dt className="text-zinc-500">ご注文日</dt>
        <dd>{formatDate(new Date(order.createdAt))}</dd>
        <dt className="text-zinc-500">大会</dt>
        <dd className="break-words">{order.contestName}</dd>
        <dt className="text-zinc-500">お支払い方法</dt>
        <dd>{order.paymentMethod}</dd>
      </dl>

      <ProgressSteps progress={order.progress} />

      <section aria-labelledby="next-heading" className="mt-4">
        {order.progress === "入金待ち" ? (
          <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
            <h2 id="next-heading" className="font-bold">
              コンビニでのお支払いをお待ちしています
            </h2>
            <p className="mt-2 text-sm leading-relaxed">
              お支払い期限までに、コンビニでお支払いください。お支払いが確認できしだい、動画の制作を始めます。
            </p>
            {order.voucher?.dueAt ? (
              <KonbiniVoucher
                confirmationNumber={order.voucher.confirmationNumber}
                dueAt={new Date(order.voucher.dueAt).getTime()}
                voucherUrl={order.voucher.voucherUrl}
                total={order.totalAmount}
              />
            ) : null}
            {konbiniTest && token ? <KonbiniTestActions statusToken={token} /> : null}
          </div>
        ) : order.progress === "返金済み" || (order.progress === "制作中" && order.nothingToMake) ? (
          // Refunded whole, or every line refused or refunded: nothing is on its way, whatever the
          // order's status says.
          <div className="rounded-xl border border-zinc-300 bg-zinc-50 p-4 text-zinc-900">
            <h2 id="next-heading" className="font-bold">
              このご注文でお届けする動画はありません
            </h2>
            <p className="mt-2 text-sm leading-relaxed">
              {order.refunds.refunds.length > 0
                ? "ご注文の動画はすべてお断り、または返金となりました。返金の内容は下の「返金について」をご覧ください。"
                : "ご注文の動画はすべて制作できませんでした。返金につきましては、ショップよりご連絡いたします。"}
            </p>
          </div>
        ) : order.progress === "制作中" ? (
          <div className="rounded-xl border border-sky-200 bg-sky-50 p-4 text-sky-950">
            <h2 id="next-heading" className="font-bold">
              動画を制作しています
            </h2>
            {order.expectedDeliveryDay ? (
              <p className="mt-3 text-sm">
                お届け予定日
                <span className="mt-1 block text-xl font-bold" data-testid="expected-delivery">
                  {formatDayWithWeekday(order.expectedDeliveryDay)}
                </span>
              </p>
            ) : null}
            <p className="mt-3 text-sm leading-relaxed">
              ご用意ができしだい、ダウンロードページのURLをご注文時のメールアドレスへお送りします。お届け予定日は土日祝日・年末年始を除いた営業日で数えています。
            </p>
          </div>
        ) : order.progress === "納品済み" ? (
          <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-950">
            <h2 id="next-heading" className="font-bold">
              動画のご用意ができました
            </h2>
            {order.download ? (
              <>
                <p className="mt-2 text-sm leading-relaxed">
                  ダウンロードページから動画を保存してください。各動画のダウンロードは1回限りです。
                </p>
                <p className="mt-2 text-sm">
                  有効期限:{" "}
                  <span className={order.download.expired ? "font-semibold text-red-700" : "font-semibold"}>
                    {formatDateTime(new Date(order.download.expiresAt))}
                  </span>
                  {order.download.expired ? "（期限切れ）" : null}
                </p>
                {order.download.expired ? (
                  <p className="mt-2 text-sm font-semibold text-red-700">
                    ダウンロードの有効期限が切れています。再度必要な場合はお問い合わせください。
                  </p>
                ) : (
                  <a href={order.download.url} className="mt-3 btn-primary w-full sm:w-auto">
                    ダウンロードページを開く
                  </a>
                )}
              </>
            ) : (
              <p className="mt-2 text-sm leading-relaxed">
                お届けのご案内は、ご注文時のメールアドレスへお送りしました。お手元にない場合はお問い合わせください。
              </p>
            )}
          </div>
        ) : (
          <div className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-950">
            <h2 id="next-heading" className="font-bold">
              お支払い期限が過ぎたため、このご注文は無効になりました
            </h2>
            <p className="mt-2 text-sm leading-relaxed">
              {
                "期限までにコンビニでのお支払いが確認できなかったため、動画は制作されません。代金をお支払いいただく必要はありません。引き続き動画をご希望の場合は、お手数ですがもう一度ご注文ください。"
              }
            </p>
            <Link to="/" className="mt-3 btn-primary w-full sm:w-auto">
              大会一覧から注文する
            </Link>
          </div>
        )}
      </section>

      <section aria-labelledby="lines-heading" className="mt-8">
        <h2 id="lines-heading" className="text-lg font-bold">
          ご注文内容
        </h2>
        <ul className="mt-3 divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white">
          {order.lines.map((line) => (
            // Two columns, so the price keeps its line beside the name however long the name
            // is (a long name breaks inside its own column); a refusal note spans both.
            <li
              key={line.id}
              className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-4 gap-y-1 px-4 py-3"
            >
              <div>
                <p className="font-semibold break-words">
                  {label} {line.athleteNumber}{" "}
                  {/* A name that does not fit moves to the next line whole, not broken between its letters. */}
                  <span className="inline-block">{line.athleteName}</span>
                </p>
                <p className="text-sm text-zinc-600">
                  {line.category}・{line.style}
                </p>
              </div>
              <LinePrice line={line} />
              <LineDiscounts line={line} className="col-span-2" />
              {line.refundState ? (
                <p className="col-span-2">
                  <LineRefundBadge state={line.refundState} amount={line.refundedAmount} />
                </p>
              ) : null}
              {line.refusalNote !== null ? (
                <div className="col-span-2">
                  {/* Once refunded, the note no longer promises a refund to come. */}
                  <RefusalNotice note={line.refusalNote} refunded={line.refundState !== null} />
                </div>
              ) : null}
            </li>
          ))}
          <DiscountRows breakdown={order.breakdown} />
          <li className="flex items-baseline justify-between gap-4 bg-zinc-50 px-4 py-3">
            <p className="font-bold">合計</p>
            <p className="font-bold whitespace-nowrap" data-testid="order-total">
              {formatYen(order.totalAmount)}
            </p>
          </li>
          <RefundTotalRows refunds={order.refunds} />
        </ul>
        <RefundDetails refunds={order.refunds.refunds} arrival={order.refunds.arrival} />
        {token && (order.progress === "制作中" || order.progress === "納品済み") && order.refunds.net > 0 ? (
          // A paid order has its 領収書 (issued on its own page, the addressee asked once); one
          // refunded whole has none.
          <p className="mt-3 text-right text-sm">
            <Link to={receiptPath(token)} className="font-semibold text-brand-700 underline">
              領収書を発行する・表示する
            </Link>
          </p>
        ) : null}
      </section>

      <p className="mt-8 text-sm leading-relaxed text-zinc-600">
        ご不明な点は、注文番号を添えて
        {/* The form arrives with the order number filled in, as from the download page. */}
        <Link to={contactPath(order.orderNumber)} className="text-brand-700 underline">
          お問い合わせ
        </Link>
        ください。このページのURLはご本人さま専用です。ほかの方と共有しないでください。
      </p>
    </div>
  );
}

const STEPS = ["入金待ち", "制作中", "納品済み"] as const;
/** A step behind the order reads as what was done ("✓ 入金待ち" would read as still waiting). */
const DONE_LABELS: Partial<Record<OrderProgress, string>> = { 入金待ち: "お支払い済み", 制作中: "制作完了" };

/**
 * 入金待ち → 制作中 → 納品済み, the current one marked; 期限切れ ends the line after 入金待ち
 * instead, since nothing follows it (and 入金待ち was never done); 返金済み ends it after the
 * payment (done), since nothing is made.
 */
function ProgressSteps({ progress }: { progress: OrderProgress }) {
  const expired = progress === "期限切れ";
  const steps: readonly OrderProgress[] = expired
    ? ["入金待ち", "期限切れ"]
    : progress === "返金済み"
      ? ["入金待ち", "返金済み"]
      : STEPS;
  const current = steps.indexOf(progress);
  return (
    <section aria-labelledby="progress-heading" className="mt-6">
      <h2 id="progress-heading" className="text-sm text-zinc-600">
        現在の状況: <span className="text-lg font-bold text-zinc-900">{progress}</span>
      </h2>
      <ol className={`mt-3 grid gap-2 ${steps.length === 3 ? "grid-cols-3" : "grid-cols-2"}`}>
        {steps.map((step, index) => {
          const state = index === current ? "current" : index < current && !expired ? "done" : "other";
          const tone =
            step === "期限切れ"
              ? "border-red-700 bg-red-700 text-white"
              : state === "current"
                ? "border-brand-600 bg-brand-600 text-white"
                : state === "done"
                  ? "border-zinc-300 bg-zinc-100 text-zinc-700"
                  : // Still to come: dashed and lighter than a step done, yet readable (zinc-500 on white is 4.8:1).
                    "border-dashed border-zinc-300 bg-white text-zinc-500";
          return (
            <li
              key={step}
              aria-current={state === "current" ? "step" : undefined}
              className={`flex min-h-12 flex-col items-center justify-center rounded-lg border px-1 py-2 text-center text-sm font-semibold ${tone}`}
            >
              <span aria-hidden="true" className="text-xs">
                {state === "done" ? "✓" : `${index + 1}`}
              </span>
              <span>{state === "done" ? (DONE_LABELS[step] ?? step) : step}</span>
              {state === "current" ? <span className="sr-only">（現在の状況）</span> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function StatusNotFound() {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <p className="text-6xl font-bold text-zinc-300">404</p>
      <h1 className="mt-4 text-2xl font-bold">注文状況のページが見つかりません</h1>
      <p className="mt-3 text-zinc-600">
        URLが正しくない可能性があります。メールに記載のURLを最後まで正しく開いたかご確認ください。
      </p>
      <div className="mt-8 flex flex-col items-center gap-3">
        <Link to="/order-lookup" className="btn-primary">
          注文番号とメールアドレスで確認する
        </Link>
        <Link to="/contact" className="btn-secondary">
          お問い合わせ
        </Link>
      </div>
    </div>
  );
}
