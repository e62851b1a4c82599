import crypto from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { readForm } from "~/server/http/form.server";
import { notFound } from "~/server/http/not-found.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { orderPageStep } from "~/server/orders/admin/order-page-steps.server";
import { findOrderByNumber, orderPage } from "~/server/orders/admin/order-page.server";
import { ManualPayment } from "./order/ManualPayment";
import { OrderLines } from "./order/OrderLines";
import { OrderSummary } from "./order/OrderSummary";
import { RefundConfirm, RefundForm } from "./order/RefundForm";
import { RefundHistory } from "./order/RefundHistory";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `注文 ${data?.order.orderNumber ?? ""} | 管理画面` },
];

/** One order: its lines, its refunds, and the refund form with a one-time key of its own. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const order = findOrderByNumber(params.orderNumber);
  if (!order) notFound();
  return { ...orderPage(order), requestKey: crypto.randomUUID() };
}

/** The refund form's 確認 / 返金する / 戻る, 再送信, テストモード's button and 入金確認（手動）; the steps are in order-page-steps.server.ts. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const order = findOrderByNumber(params.orderNumber);
  if (!order) notFound();
  const outcome = await orderPageStep(order, admin, await readForm(request));
  if (outcome.done)
    return redirectWithToast(request, `/admin/orders/${order.orderNumber}`, outcome.toast, { status: 303 });
  return data(
    { reply: outcome.reply, confirm: outcome.confirm, manualPayment: outcome.manualPayment ?? null },
    { status: outcome.status },
  );
}

export default function OrderPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { order, left } = page;
  const here = `/admin/orders/${order.orderNumber}`;
  return (
    <section className="mx-auto max-w-5xl px-4 py-6">
      <p className="text-sm">
        <Link to="/admin/orders" className="text-brand-700 underline">
          ← 動画注文一覧へ戻る
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">注文番号 {order.orderNumber}</h1>
      <OrderSummary page={page} />
      {order.manualPaymentOpen || answer?.manualPayment ? (
        <ManualPayment order={order} answer={answer?.manualPayment ?? null} action={here} />
      ) : null}
      <OrderLines lines={page.lines} />
      <RefundHistory refunds={page.refunds} action={here} />
      <section aria-labelledby="refund-title" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="refund-title" className="text-lg font-bold">
          返金する
        </h2>
        {order.paymentStatus !== "paid" ? (
          <p className="mt-2 text-sm text-zinc-600">入金が確認された注文だけを返金できます。</p>
        ) : order.refundAwaitsProvider ? (
          <p className="mt-2 text-sm text-zinc-600">{order.refundAwaitsProvider}</p>
        ) : left <= 0 ? (
          <p className="mt-2 text-sm text-zinc-600">この注文は全額返金済み（または返金手続き中）です。</p>
        ) : answer?.confirm ? (
          <RefundConfirm confirm={answer.confirm} action={here} paymentMethod={order.paymentMethod} />
        ) : (
          <RefundForm
            // An empty form after each refund; a refused post's values come back through lastResult.
            key={page.refunds.length}
            page={page}
            action={here}
            lastResult={answer?.reply ?? null}
          />
        )}
      </section>
    </section>
  );
}
