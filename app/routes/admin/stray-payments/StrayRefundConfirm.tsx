import { Form, Link } from "@remix-run/react";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import type { StrayLedgerEntry } from "~/server/refunds/stray-payment-ledger.server";

type Refundable = Pick<StrayLedgerEntry, "id" | "amountLabel" | "reasonLabel" | "paymentIntentId"> & {
  requestKey: string | null;
};

/** Moving money is asked twice: this is the question without JS (with JS, the same in a dialog). */
export function StrayRefundConfirm({ entry, action }: { entry: Refundable; action: string }) {
  const busy = useIsPending({ intent: "refund" });
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold">この決済を全額返金しますか？</h1>
        <StrayRefundSummary entry={entry} />
        <Form method="post" action={action} className="mt-6 flex flex-wrap justify-end gap-3">
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="strayPaymentId" value={entry.id} />
          <input type="hidden" name="requestKey" value={entry.requestKey ?? ""} />
          <Link to={action} className="btn-secondary">
            キャンセル
          </Link>
          <button type="submit" disabled={busy} className="btn bg-red-600 text-white hover:bg-red-700">
            {busy ? "返金しています…" : `${entry.amountLabel}を返金する`}
          </button>
        </Form>
      </div>
    </section>
  );
}

/** What is about to be refunded, in the dialog and on the confirmation page alike. */
export function StrayRefundSummary({ entry }: { entry: Omit<Refundable, "id" | "requestKey"> }) {
  return (
    <>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-500">金額</dt>
        <dd className="font-bold">{entry.amountLabel}</dd>
        <dt className="text-zinc-500">理由</dt>
        <dd>{entry.reasonLabel}</dd>
        <dt className="text-zinc-500">決済ID</dt>
        <dd className="font-mono text-xs break-all">{entry.paymentIntentId}</dd>
      </dl>
      <p className="mt-3 text-sm text-zinc-700">
        お支払いの全額を、支払われた方法でお客様に返金します。返金は取り消せません。
      </p>
    </>
  );
}
