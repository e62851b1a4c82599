import { Form } from "@remix-run/react";
import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import { PAYMENT_METHOD_NAMES } from "~/lib/rules/payment-terms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import type { OrderPage } from "~/server/orders/admin/order-page.server";
import { RefundBadge } from "./OrderLines";

/**
 * The order's refunds, newest first: amount, lines, reason, state (with why it failed), who and
 * when. A refund the provider was not reached for offers 再送信; テストモード offers the end of a
 * konbini refund's wait (the customer's bank transfer), which Stripe would report by webhook.
 */
export function RefundHistory({ refunds, action }: { refunds: OrderPage["refunds"]; action: string }) {
  if (refunds.length === 0) return null;
  return (
    <section aria-labelledby="refunds-title" className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="refunds-title" className="text-lg font-bold">
        返金履歴
      </h2>
      <ul className="mt-2 divide-y divide-zinc-100">
        {refunds.map((refund) => (
          <li key={refund.id} data-refund={refund.id} className="space-y-1 py-3 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-bold">{formatYenShort(refund.amount)}</span>
              {refund.status === "failed" ? (
                <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-700">
                  {refund.statusLabel}
                </span>
              ) : (
                <RefundBadge label={refund.statusLabel} />
              )}
              {refund.method ? (
                <span className="text-xs text-zinc-600">{PAYMENT_METHOD_NAMES[refund.method]}</span>
              ) : null}
            </p>
            <p className="text-zinc-700">
              {refund.lineNumbers.length ? `明細 ${refund.lineNumbers.join("、")}` : "金額を指定して返金"}
            </p>
            <p className="break-words whitespace-pre-line text-zinc-700">理由: {refund.reason}</p>
            {refund.failureReason ? (
              <p className="break-words text-red-700">返金できなかった理由: {refund.failureReason}</p>
            ) : null}
            <p className="text-xs text-zinc-500">
              {formatDateTime(refund.createdAt)}・{refund.admin ?? "決済サービスの管理画面"}
              {refund.succeededAt ? `・返金完了 ${formatDateTime(refund.succeededAt)}` : ""}
            </p>
            {refund.resendable ? (
              <RefundButton action={action} refundId={refund.id} intent="resend-refund" label="再送信" />
            ) : null}
            {refund.testCompletable ? (
              <RefundButton
                action={action}
                refundId={refund.id}
                intent="complete-test-refund"
                label="テストモード: お客様の口座に振り込まれたことにする"
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RefundButton({
  action,
  refundId,
  intent,
  label,
}: {
  action: string;
  refundId: number;
  intent: string;
  label: string;
}) {
  const busy = useIsPending({ intent });
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="refundId" value={refundId} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        className="mt-1 btn-secondary min-h-9 py-1 text-sm"
      >
        {label}
      </button>
    </Form>
  );
}
