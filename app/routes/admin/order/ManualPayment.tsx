import { Form, Link } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import type { ManualPaymentAnswer } from "~/server/orders/admin/order-page-steps.server";
import type { OrderPage } from "~/server/orders/admin/order-page.server";

/**
 * 入金確認（手動） of a konbini order still 入金待ち: for when the customer paid at the store and
 * shows the receipt, but the payment service's word has not come. 入金確認（手動） posts for the
 * confirmation (with JavaScript off as on), which says what will happen; 入金済みにする does it,
 * 戻る leaves it. A refusal (reported meanwhile, past its deadline) is said here.
 */
export function ManualPayment({
  order,
  answer,
  action,
}: {
  order: OrderPage["order"];
  answer: ManualPaymentAnswer | null;
  action: string;
}) {
  const reviewing = useIsPending({ intent: "review-manual-payment" });
  const confirming = useIsPending({ intent: "manual-payment" });
  return (
    <section aria-labelledby="manual-payment-title" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="manual-payment-title" className="text-lg font-bold">
        入金確認（手動）
      </h2>
      {answer?.step === "refused" ? (
        <div className="mt-3">
          <FormError errors={[answer.message]} />
        </div>
      ) : answer?.step === "confirm" ? (
        <Form
          method="post"
          action={action}
          className="mt-3 space-y-4"
          aria-labelledby="manual-payment-confirm"
        >
          <p id="manual-payment-confirm" className="text-base font-bold sm:text-lg" role="alert">
            注文 {order.orderNumber} を入金済みにします。よろしいですか？
          </p>
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
            <dt className="font-semibold text-zinc-600">お客様</dt>
            <dd className="min-w-0 break-words">{order.customerName}</dd>
            <dt className="font-semibold text-zinc-600">金額</dt>
            <dd>{formatYenShort(order.totalAmount)}（税込）</dd>
            {order.konbiniConfirmationNumber ? (
              <>
                <dt className="font-semibold text-zinc-600">確認番号</dt>
                <dd className="tabular-nums">{order.konbiniConfirmationNumber}</dd>
              </>
            ) : null}
            {order.paymentDueAt ? (
              <>
                <dt className="font-semibold text-zinc-600">お支払い期限</dt>
                <dd>{formatDateTime(order.paymentDueAt)}</dd>
              </>
            ) : null}
          </dl>
          <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-700">
            <li>
              お客様のレシート（払込票の控え）の金額・確認番号が、この注文と同じことを確かめてください。
            </li>
            <li>
              入金済みにすると、お客様に「お支払いを確認しました」のメールを送り、制作の対象になります。取り消せません。
            </li>
            <li>あなたのアカウントと日時が、入金確認をした人として注文に記録されます。</li>
            <li>
              後から決済サービスの入金の連絡が届いても、注文や入金が二重になることはありません。返金は、その連絡が届いてからできます。
            </li>
          </ul>
          <div className="flex flex-wrap justify-end gap-3">
            <Link to={action} className="btn-secondary">
              戻る
            </Link>
            <button
              type="submit"
              name="intent"
              value="manual-payment"
              disabled={confirming}
              className="btn-primary"
            >
              {confirming ? "記録中..." : "入金済みにする"}
            </button>
          </div>
        </Form>
      ) : (
        <Form method="post" action={action} className="mt-2 space-y-3">
          <p className="text-sm text-zinc-700">
            お客様がコンビニで支払ったのに、決済サービスからの入金の連絡が届かないときに使います（通常は連絡が届き、自動で入金済みになります）。
          </p>
          <div className="flex justify-end">
            <button
              type="submit"
              name="intent"
              value="review-manual-payment"
              disabled={reviewing}
              className="btn-secondary"
            >
              {reviewing ? "確認中..." : "入金確認（手動）"}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
