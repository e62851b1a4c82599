import { getCollectionProps, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { Field, FieldsetField, SubmitRow, TextareaField } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { formatYenShort } from "~/lib/rules/format";
import { REFUND_REASON_MAX, refundFormSchema } from "~/lib/schemas/refund-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import type { RefundConfirmation } from "~/server/orders/admin/order-page-steps.server";
import type { OrderPage } from "~/server/orders/admin/order-page.server";

/**
 * The refund form: the lines no refund covers yet (each at its paid price) or a typed amount up
 * to what is left, and the reason the customer is shown. 確認する posts it for the confirmation
 * (the same with JavaScript on or off); a refusal comes back beside its field with what was typed.
 */
export function RefundForm({
  page,
  action,
  lastResult,
}: {
  page: OrderPage & { requestKey: string };
  action: string;
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { left } = page;
  const refundable = page.lines.filter((line) => !line.refundState);
  const [form, fields] = useShopForm({
    id: "refund",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: validateWith(refundFormSchema({ left })),
  });
  const busy = useIsPending({ intent: "review" });
  const boxes = getCollectionProps(fields.lineIds, {
    type: "checkbox",
    options: refundable.map((line) => String(line.id)),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-3 space-y-5">
      <input
        type="hidden"
        name="requestKey"
        value={(fields.requestKey.initialValue as string | undefined) ?? page.requestKey}
      />
      <FormError id={form.errorId} errors={form.errors} />
      <FieldsetField label="返金する明細（お支払いいただいた価格で返金）" meta={fields.lineIds}>
        {refundable.length === 0 ? (
          <p className="text-sm text-zinc-600">返金していない明細はありません。金額を指定してください。</p>
        ) : (
          <ul className="space-y-2">
            {boxes.map(({ key, ...box }) => {
              const line = refundable.find((candidate) => String(candidate.id) === box.value)!;
              return (
                <li key={key}>
                  <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-zinc-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                    <input {...box} className="h-5 w-5 shrink-0 accent-brand-600" />
                    <span className="min-w-0 flex-1 break-words">
                      <span className="mr-2 font-mono text-xs text-zinc-500">{line.lineNumber}</span>
                      {line.athlete}・{line.style}
                      {line.refused ? (
                        <span className="ml-2 text-xs font-bold text-red-700">お断り</span>
                      ) : null}
                    </span>
                    <span className="shrink-0 font-semibold">{formatYenShort(line.price)}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </FieldsetField>
      <Field
        label="または返金額（円）"
        meta={fields.amount}
        type="text"
        hint={`明細を選ばずに金額で返金します。返金できる残り: ${formatYenShort(left)}`}
        inputProps={{
          inputMode: "numeric",
          autoComplete: "off",
          placeholder: "例: 3000",
          className: "field-input sm:w-48",
        }}
      />
      <TextareaField
        label="返金の理由"
        meta={fields.reason}
        hint={`お客様へのメールと注文状況ページに表示されます（${REFUND_REASON_MAX}文字以内）。`}
        textareaProps={{
          rows: 3,
          maxLength: REFUND_REASON_MAX,
          placeholder: "例: 撮影できなかった演技の代金を返金します。",
        }}
      />
      <SubmitRow busy={busy} busyLabel="確認中...">
        確認する
      </SubmitRow>
    </Form>
  );
}

/**
 * 「5,000円を返金します。よろしいですか？」: what 返金する will do, with the form's values as
 * hidden fields and its one-time key, so posting it twice (a double click, Back and again)
 * refunds once. 戻る brings the form back as it was typed.
 */
export function RefundConfirm({
  confirm,
  action,
  paymentMethod,
}: {
  confirm: RefundConfirmation;
  action: string;
  paymentMethod: OrderPage["order"]["paymentMethod"];
}) {
  const busy = useIsPending({ intent: "refund" });
  return (
    <Form method="post" action={action} className="mt-3 space-y-4" aria-labelledby="refund-confirm-title">
      <p id="refund-confirm-title" className="text-lg font-bold" role="alert">
        {formatYenShort(confirm.amount)}を返金します。よろしいですか？
      </p>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[6rem_1fr]">
        <dt className="font-semibold text-zinc-600">明細</dt>
        <dd>{confirm.lineNumbers.length ? confirm.lineNumbers.join("、") : "金額を指定して返金"}</dd>
        <dt className="font-semibold text-zinc-600">理由</dt>
        <dd className="break-words whitespace-pre-line">{confirm.reason}</dd>
        <dt className="font-semibold text-zinc-600">返金方法</dt>
        <dd>
          {paymentMethod === "konbini"
            ? "コンビニ払い: 決済サービスがお客様に口座の登録をメールでお願いし、登録後に振り込みます。"
            : "クレジットカード: お客様のカードに返金します。"}
        </dd>
      </dl>
      <p className="text-sm text-zinc-600">
        返金すると取り消せません。お客様に返金のお知らせをメールします。
      </p>
      <input type="hidden" name="requestKey" value={confirm.requestKey} />
      <input type="hidden" name="reason" value={confirm.reason} />
      {confirm.lineIds.length ? (
        confirm.lineIds.map((id) => <input key={id} type="hidden" name="lineIds" value={id} />)
      ) : (
        <input type="hidden" name="amount" value={confirm.amount} />
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="submit" name="intent" value="edit" formNoValidate className="btn-secondary">
          戻る
        </button>
        <button
          type="submit"
          name="intent"
          value="refund"
          disabled={busy}
          className="btn bg-red-600 text-white hover:bg-red-700"
        >
          {busy ? "返金中..." : "返金する"}
        </button>
      </div>
    </Form>
  );
}
