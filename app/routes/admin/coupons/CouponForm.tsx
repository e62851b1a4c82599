import { getCollectionProps, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, FieldError, FieldsetField, RadioGroupField, SubmitRow } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { formatYenShort } from "~/lib/rules/format";
import { couponFormSchema, type CouponFormInput, type CouponValues } from "~/lib/schemas/coupon-schemas";
import { toTokyoDateTimeInput } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import type { CouponListEntry } from "~/server/promotions/coupon-admin.server";

type Editing = Pick<
  CouponListEntry,
  | "id"
  | "code"
  | "label"
  | "kind"
  | "value"
  | "minTotal"
  | "validFrom"
  | "validUntil"
  | "contestIds"
  | "maxUses"
  | "maxUsesPerEmail"
  | "locked"
  | "contests"
>;

const KIND_OPTIONS = [
  { value: "yen", label: "円引き" },
  { value: "percent", label: "%引き" },
] as const;

/** The stored coupon as the form's fields show it (dates in Japan time, numbers as typed). */
function formValues(coupon: Editing | null) {
  if (!coupon) return { kind: "yen", minTotal: "0" };
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    code: coupon.code,
    label: coupon.label,
    kind: coupon.kind,
    value: String(coupon.value),
    minTotal: String(coupon.minTotal),
    validFrom: coupon.validFrom ? toTokyoDateTimeInput(coupon.validFrom) : "",
    validUntil: coupon.validUntil ? toTokyoDateTimeInput(coupon.validUntil) : "",
    contestIds: (coupon.contestIds ?? []).map(String),
    maxUses: text(coupon.maxUses),
    maxUsesPerEmail: text(coupon.maxUsesPerEmail),
  };
}

/**
 * Creates a coupon, or changes the one being edited. Checked in the browser with the server's own
 * schema; without JS the server's reply brings every typed value back with its message. A coupon
 * already used shows its code and discount as text (posted as they are): orders name them.
 */
export function CouponForm({
  editing,
  contests,
  lastResult,
}: {
  editing: Editing | null;
  contests: { id: number; name: string }[];
  lastResult: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useShopForm<CouponFormInput, CouponValues>({
    id: editing ? `coupon-${editing.id}` : "coupon-new",
    lastResult,
    defaultValue: formValues(editing) as Record<string, unknown>,
    onValidate: validateWith(couponFormSchema),
  });
  const busy = useIsPending({ intent: "save" });
  const action = editing ? `/admin/coupons?edit=${editing.id}` : "/admin/coupons";
  const locked = editing?.locked ?? false;
  // A contest deleted since stays a choice of its coupon: left out, the coupon would be saved for
  // every contest.
  const gone = (editing?.contests ?? []).filter((contest) => contest.name === null);
  const choices = [
    ...contests,
    ...gone.map((contest) => ({ id: contest.id, name: `（削除された大会 #${contest.id}）` })),
  ];
  const contestBoxes = getCollectionProps(fields.contestIds, {
    type: "checkbox",
    options: choices.map((contest) => String(contest.id)),
  });
  const names = new Map(choices.map((contest) => [String(contest.id), contest.name]));
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="save" />
      {editing ? <input type="hidden" name="couponId" value={editing.id} /> : null}
      {form.errors ? (
        <p role="alert" className="field-error">
          {form.errors[0]}
        </p>
      ) : null}
      {locked && editing ? (
        <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            コード <span className="font-mono font-bold">{editing.code}</span> ・{" "}
            {editing.kind === "yen" ? `${formatYenShort(editing.value)}引き` : `${editing.value}%引き`}
          </p>
          <p className="mt-1">
            このクーポンはすでに使われているため、コード・割引の種類・割引額は変更できません（注文に記録されています）。
          </p>
          <input type="hidden" name="code" value={editing.code} />
          <input type="hidden" name="kind" value={editing.kind} />
          <input type="hidden" name="value" value={editing.value} />
          <FieldError id={fields.code.errorId} errors={fields.code.errors} />
          <FieldError id={fields.kind.errorId} errors={fields.kind.errors} />
          <FieldError id={fields.value.errorId} errors={fields.value.errors} />
        </div>
      ) : (
        <>
          <Field
            label="クーポンコード"
            meta={fields.code}
            type="text"
            hint="半角英数字と - _（3〜32文字）。小文字や全角で入力しても大文字で保存されます"
            inputProps={{
              autoComplete: "off",
              spellCheck: false,
              className: "field-input font-mono uppercase",
            }}
          />
          <RadioGroupField label="割引の種類" meta={fields.kind} options={KIND_OPTIONS} />
          <Field
            label="割引額（円 または %）"
            meta={fields.value}
            type="number"
            hint="円引きは1〜1,000,000円、%引きは1〜100%（どの割引でも、お支払いは最低50円になります）"
            inputProps={{ inputMode: "numeric", min: 1 }}
          />
        </>
      )}
      <Field
        label="メモ（管理用・お客様には表示されません）"
        meta={fields.label}
        type="text"
        inputProps={{ placeholder: "例: 昨年度のお客様向け" }}
      />
      <Field
        label="最低金額（円）"
        meta={fields.minTotal}
        type="number"
        hint="早割などを引いた合計がこの金額以上の注文に使えます（0 = 制限なし）"
        inputProps={{ inputMode: "numeric", min: 0 }}
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
        <Field
          label="開始日時（日本時間）"
          meta={fields.validFrom}
          type="datetime-local"
          hint="空欄 = すぐに"
        />
        <Field
          label="終了日時（日本時間）"
          meta={fields.validUntil}
          type="datetime-local"
          hint="空欄 = 期限なし"
        />
      </div>
      <FieldsetField
        label="対象の大会"
        meta={fields.contestIds}
        hint="どれも選ばなければ、すべての大会で使えます"
      >
        <div className="max-h-56 space-y-1 overflow-y-auto rounded-lg border border-zinc-200 p-2">
          {contestBoxes.length === 0 ? <p className="text-sm text-zinc-500">大会がありません</p> : null}
          {contestBoxes.map(({ key, ...box }) => (
            <label key={key} className="flex min-h-9 cursor-pointer items-center gap-2 text-sm">
              <input {...box} className="h-4 w-4 shrink-0 accent-brand-600" />
              <span className="min-w-0 break-words">{names.get(box.value)}</span>
            </label>
          ))}
        </div>
      </FieldsetField>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
        <Field
          label="利用上限（全体）"
          meta={fields.maxUses}
          type="number"
          hint="空欄 = 上限なし"
          inputProps={{ inputMode: "numeric", min: 1 }}
        />
        <Field
          label="利用上限（1アドレスあたり）"
          meta={fields.maxUsesPerEmail}
          type="number"
          hint="空欄 = 上限なし"
          inputProps={{ inputMode: "numeric", min: 1 }}
        />
      </div>
      <SubmitRow busy={busy} busyLabel="保存中...">
        {editing ? "保存する" : "クーポンを追加"}
      </SubmitRow>
    </Form>
  );
}
