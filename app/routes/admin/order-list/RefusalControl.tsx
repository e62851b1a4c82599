import { Form } from "@remix-run/react";
import { FieldError } from "~/components/forms";
import { formatYenShort } from "~/lib/rules/format";
import { REFUSAL_NOTE_MAX } from "~/lib/schemas/line-refusal-schemas";
import type { RefusalError } from "~/server/orders/admin/order-list-actions.server";
import type { OrderGroup } from "~/server/orders/admin/order-list.server";

/**
 * お断り for one line: a note for the customer (mailed, and shown on their status and download
 * pages), the line's refund in the same step (ticked by default; its one-time key made when the
 * list was drawn, so a double click refunds once) and a button. Its inputs belong to the line's
 * own form by the form attribute. Open again with the typed note when the server refused it.
 */
export function RefusalControl({
  lineId,
  lineNumber,
  price,
  refundKey,
  error,
}: {
  lineId: number;
  lineNumber: string;
  price: number;
  /** null when the line is already refunded: nothing to offer. */
  refundKey: string | null;
  error: RefusalError | null;
}) {
  const formId = `refuse-${lineId}`;
  return (
    <details open={error ? true : undefined} className="mt-2 text-xs">
      <summary className="cursor-pointer text-zinc-600 underline">お断りにする（制作できない場合）</summary>
      <div className="mt-2 space-y-2 rounded-lg border border-red-200 bg-red-50/50 p-3">
        <label htmlFor={`${formId}-note`} className="block font-semibold text-zinc-800">
          {lineNumber} のお客様へのお知らせ
        </label>
        <textarea
          id={`${formId}-note`}
          name="note"
          form={formId}
          required
          maxLength={REFUSAL_NOTE_MAX}
          rows={3}
          defaultValue={error?.note ?? ""}
          placeholder="例: 当日の撮影に不具合があり、この演技の動画をご用意できませんでした。"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${formId}-error` : undefined}
          className="field-input w-full text-sm"
        />
        <FieldError id={`${formId}-error`} errors={error ? [error.refusalMessage] : null} announce />
        {refundKey ? (
          <>
            <label className="flex items-start gap-2 text-zinc-800">
              <input
                type="checkbox"
                name="refund"
                form={formId}
                // Ticked unless the admin unticked it before a refused post.
                defaultChecked={error ? error.refund : true}
                className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
              />
              <span>この明細の代金（{formatYenShort(price)}）を返金する</span>
            </label>
            <input type="hidden" name="refundKey" form={formId} value={refundKey} />
          </>
        ) : null}
        <p className="text-zinc-600">
          {refundKey
            ? "お客様にメールでお知らせします。返金する場合はメールにその旨を記載し、返金のお知らせも別にお送りします。返金しない場合は、返金はショップから別途ご連絡する旨を記載します。"
            : "この明細は返金済み（または返金手続き中）です。お客様へのメールにもその旨を記載します。"}
        </p>
        <button
          type="submit"
          form={formId}
          name="intent"
          value="refuse-line"
          className="rounded-lg border border-red-300 bg-white px-3 py-1.5 font-semibold text-red-700 hover:bg-red-50"
        >
          お断りにしてお客様に知らせる
        </button>
      </div>
    </details>
  );
}

/**
 * Each line's own form for お断り and its undo (`refuse-{lineId}`, `withdraw-{lineId}`), after the
 * order's form: a form may not sit inside another, so the line's controls name it by id.
 */
export function LineRefusalForms({ group, action }: { group: OrderGroup; action: string }) {
  return group.lines.map((line) => (
    <Form
      key={line.id}
      method="post"
      action={action}
      id={line.refused ? `withdraw-${line.id}` : `refuse-${line.id}`}
      hidden
    >
      <input type="hidden" name="orderId" value={group.id} />
      <input type="hidden" name="lineId" value={line.id} />
    </Form>
  ));
}
