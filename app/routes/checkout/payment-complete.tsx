import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { clearOrderFormChoices } from "~/lib/browser/order-form-storage";
import { sessionOrder } from "~/server/orders/orders.server";
import { orderStatusPath } from "~/lib/rules/order-links";
import { promisedDeliveryDay } from "~/server/orders/business-days.server";
import { formatDayWithWeekday } from "~/lib/rules/format";
import { getSession } from "~/server/http/session.server";
import { DoneMark } from "~/components/icons";
import { KonbiniVoucher } from "~/components/KonbiniVoucher";

export const meta: MetaFunction = () => [{ title: "ご注文完了 | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const order = sessionOrder(session);
  if (!order) throw redirect("/");
  return {
    orderNumber: order.orderNumber,
    email: order.customerEmail,
    statusPath: orderStatusPath(order.statusToken),
    promisedDay: order.paidAt ? promisedDeliveryDay(order.paidAt) : null,
    voucher:
      order.paymentStatus === "awaiting" && order.paymentDueAt
        ? {
            confirmationNumber: order.konbiniConfirmationNumber,
            dueAt: order.paymentDueAt.getTime(),
            voucherUrl: order.konbiniVoucherUrl,
            total: order.totalAmount,
          }
        : null,
  };
}

export default function PaymentComplete() {
  const { orderNumber, email, statusPath, voucher, promisedDay } = useLoaderData<typeof loader>();
  // The order is made: its choices are not offered again on the next visit to the form.
  useEffect(() => clearOrderFormChoices(), []);
  return (
    <div className="mx-auto max-w-lg px-4 py-10 text-center sm:py-16">
      <DoneMark />
      <h1 className="mt-4 text-2xl font-bold">
        {voucher ? "ご注文を承りました" : "ご注文ありがとうございました"}
      </h1>
      <div className="mt-6 rounded-2xl border border-zinc-200 bg-white p-5">
        <p className="text-sm text-zinc-500">注文番号</p>
        <p className="mt-1 text-3xl font-bold tracking-widest" data-testid="order-number">
          {orderNumber}
        </p>
      </div>
      {voucher ? (
        <>
          <KonbiniVoucher {...voucher} />
          <p className="mt-6 text-left text-zinc-700">
            お支払い方法と確認番号を <span className="font-semibold break-all">{email}</span>{" "}
            へメールでお送りしました。お支払いを確認してから動画の制作を始めます。
          </p>
        </>
      ) : (
        <p className="mt-6 text-left text-zinc-700">
          {promisedDay ? `お届け予定日は${formatDayWithWeekday(promisedDay)}です。` : null}
          できあがりしだい、ダウンロードURLを <span className="font-semibold break-all">{email}</span>{" "}
          へメールでお送りします。注文確認メールもお送りしましたのでご確認ください。
        </p>
      )}
      <Link to={statusPath} className="mt-8 btn-secondary w-full">
        注文状況を確認する
      </Link>
      <Link to="/" className="mt-3 btn-primary w-full" reloadDocument>
        ホームへ戻る
      </Link>
    </div>
  );
}
