import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { formatDateTime } from "~/lib/rules/format";
import type { StrayLedgerEntry } from "~/server/refunds/stray-payment-ledger.server";
import { StrayRefundSummary } from "./StrayRefundConfirm";

type Entry = StrayLedgerEntry & { requestKey: string | null };

/**
 * Each stray payment as a card (they have too many parts for a phone-width table): amount, reason,
 * state, when, the payment's id, the order it duplicates, and its buttons. 全額返金 asks first: with
 * JS in a dialog, without JS on the confirmation its link leads to.
 */
export function StrayPaymentList({ entries, action }: { entries: Entry[]; action: string }) {
  const [confirming, setConfirming] = useState<Entry | null>(null);
  if (entries.length === 0)
    return (
      <p className="mt-6 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
        注文にならなかった決済はありません
      </p>
    );
  return (
    <>
      <ConfirmDialog
        open={confirming !== null}
        title="この決済を全額返金しますか？"
        action={action}
        // The amount stands in bold just above; with it the label wrapped beside キャンセル at 390 px.
        confirmLabel="返金する"
        onCancel={() => setConfirming(null)}
        fields={{
          intent: "refund",
          strayPaymentId: String(confirming?.id ?? ""),
          requestKey: confirming?.requestKey ?? "",
        }}
      >
        {confirming ? <StrayRefundSummary entry={confirming} /> : null}
      </ConfirmDialog>
      <ul className="mt-4 space-y-3">
        {entries.map((entry) => (
          <li
            key={entry.id}
            data-stray-payment={entry.paymentIntentId}
            className="rounded-xl bg-white p-4 shadow-sm sm:p-5"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="text-lg font-bold">{entry.amountLabel}</span>
                  <StateBadge entry={entry} />
                </p>
                <p className="mt-0.5 text-sm font-medium text-zinc-800">{entry.reasonLabel}</p>
              </div>
              <EntryActions entry={entry} action={action} onRefund={() => setConfirming(entry)} />
            </div>
            <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_1fr]">
              <dt className="text-zinc-500">{entry.providerRefundId ? "報告日時" : "決済日時"}</dt>
              <dd>{formatDateTime(entry.createdAt)}</dd>
              <dt className="text-zinc-500">決済ID</dt>
              <dd className="font-mono text-xs break-all sm:text-sm">{entry.paymentIntentId}</dd>
              {entry.providerRefundId ? (
                <>
                  <dt className="text-zinc-500">返金ID</dt>
                  <dd className="font-mono text-xs break-all sm:text-sm">{entry.providerRefundId}</dd>
                </>
              ) : null}
              {entry.orderNumber ? (
                <>
                  <dt className="text-zinc-500">
                    {entry.providerRefundId ? "返金の対象の注文" : "作成済みの注文"}
                  </dt>
                  <dd>
                    <Link
                      to={`/admin/orders/${encodeURIComponent(entry.orderNumber)}`}
                      className="text-brand-700 underline"
                    >
                      注文番号 {entry.orderNumber}
                    </Link>
                  </dd>
                </>
              ) : null}
              {entry.customerEmail ? (
                <>
                  <dt className="text-zinc-500">お客様</dt>
                  <dd className="break-all">{entry.customerEmail}</dd>
                </>
              ) : null}
              <dt className="text-zinc-500">詳細</dt>
              <dd className="break-words text-zinc-700">{entry.detail}</dd>
              {entry.refund ? (
                <>
                  <dt className="text-zinc-500">返金</dt>
                  <dd>
                    {entry.refund.statusLabel}（{formatDateTime(entry.refund.createdAt)}
                    {entry.refund.succeededAt ? `、完了 ${formatDateTime(entry.refund.succeededAt)}` : ""}）
                    {entry.refund.failureReason ? (
                      <span className="block text-red-700">理由: {entry.refund.failureReason}</span>
                    ) : null}
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function StateBadge({ entry }: { entry: Entry }) {
  // A refund report is not money to give back: the admin checks it at the payment service.
  const label = entry.providerRefundId
    ? "要確認"
    : entry.refund && !entry.refundable
      ? entry.refund.statusLabel
      : "未返金";
  const tone =
    label === "返金済み"
      ? "bg-emerald-100 text-emerald-800"
      : label === "未返金"
        ? "bg-red-100 text-red-800"
        : "bg-amber-100 text-amber-900";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${tone}`}>{label}</span>;
}

function EntryActions({ entry, action, onRefund }: { entry: Entry; action: string; onRefund: () => void }) {
  const resending = useIsPending({ intent: "resend" });
  if (entry.resendableRefundId !== null)
    return (
      <Form method="post" action={action}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="refundId" value={entry.resendableRefundId} />
        <button type="submit" disabled={resending} className="btn-secondary text-sm">
          {resending ? "送信しています…" : "返金を再送信"}
        </button>
      </Form>
    );
  if (!entry.refundable) return null;
  return (
    <Link
      to={`${action}?confirm=${entry.id}`}
      onClick={(event) => {
        event.preventDefault();
        onRefund();
      }}
      aria-label={`${entry.amountLabel}（${entry.paymentIntentId}）を全額返金`}
      className="inline-flex items-center rounded-lg border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
    >
      全額返金
    </Link>
  );
}
