import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, RadioGroupField, SubmitRow } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import type { StyleNames } from "~/lib/rules/promotion-notices";
import {
  MAX_PROMOTION_PERCENT,
  MAX_QUANTITY_ITEMS,
  MIN_QUANTITY_ITEMS,
  PROMOTIONS_INTENT,
  promotionSettingsSchema,
} from "~/lib/schemas/promotion-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { SettingsSection, type SettingsReply } from "./SettingsSection";

type PromotionValues = {
  earlyBirdVerticalPrice: string;
  earlyBirdHorizontalPrice: string;
  earlyBirdEndsAt: string;
  setDiscount: string;
  quantityMinItems: string;
  quantityDiscountKind: string;
  quantityDiscountValue: string;
};

const KIND_OPTIONS = [
  { value: "yen", label: "1本あたり 円引き" },
  { value: "percent", label: "1本あたり %引き" },
];

// Whole numbers typed as text: a phone shows digits, and 全角 digits or "3,000" are forgiven.
const NUMBER_INPUT = {
  inputMode: "numeric",
  autoComplete: "off",
  className: "field-input sm:max-w-[12rem]",
} as const;

/**
 * キャンペーン価格: 早割, セット割 and まとめ割 in one form (posted as the intent "promotions",
 * without JavaScript too). A field left empty turns its promotion off. Above the form, what
 * applies now, in words.
 */
export function PromotionsSection({
  promotions,
  lastResult,
}: {
  promotions: { styles: StyleNames; values: PromotionValues; summary: string[] };
  lastResult: SettingsReply;
}) {
  const { styles } = promotions;
  const [form, fields] = useShopForm({
    id: "promotions-form",
    lastResult,
    defaultValue: promotions.values,
    shouldValidate: "onSubmit",
    onValidate: validateWith(promotionSettingsSchema),
  });
  const busy = useIsPending({ intent: PROMOTIONS_INTENT });
  return (
    <SettingsSection
      id="promotions"
      title="キャンペーン価格"
      description="注文フォームとお支払いの金額に、ここでの設定が反映されます。空欄にした項目は行われません。"
    >
      <div className="rounded-lg bg-zinc-50 p-3 text-sm">
        <p className="font-semibold">現在の設定</p>
        <ul aria-label="現在のキャンペーン" className="mt-1 space-y-0.5">
          {promotions.summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
        <input type="hidden" name="intent" value={PROMOTIONS_INTENT} />
        <FormError id={form.errorId} errors={form.errors} />

        <fieldset className="space-y-3">
          <legend className="font-semibold">早割</legend>
          <p className="text-xs text-zinc-600">
            終了日時までのご注文は早割価格になります（選手ごとの価格より安い場合だけ）。価格を空欄にしたスタイルは早割なしです。
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label={`早割価格（${styles.vertical}・円）`}
              meta={fields.earlyBirdVerticalPrice}
              type="text"
              inputProps={{ ...NUMBER_INPUT, placeholder: "例: 2500" }}
              announce
            />
            <Field
              label={`早割価格（${styles.horizontal}・円）`}
              meta={fields.earlyBirdHorizontalPrice}
              type="text"
              inputProps={{ ...NUMBER_INPUT, placeholder: "例: 3000" }}
              announce
            />
          </div>
          <Field
            label="早割の終了日時（日本時間）"
            meta={fields.earlyBirdEndsAt}
            type="datetime-local"
            hint="日本時間で入力してください。この日時になると通常価格に戻ります。"
            inputProps={{ className: "field-input sm:max-w-xs" }}
            announce
          />
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="font-semibold">セット割</legend>
          <Field
            label={`同じ選手の${styles.vertical}・${styles.horizontal}を両方ご注文で値引き（円）`}
            meta={fields.setDiscount}
            type="text"
            hint="選手1人のセットごとに値引きします。"
            inputProps={{ ...NUMBER_INPUT, placeholder: "例: 500" }}
            announce
          />
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="font-semibold">まとめ割</legend>
          <Field
            label="1回のご注文の本数（この本数以上で適用）"
            meta={fields.quantityMinItems}
            type="text"
            hint={`${MIN_QUANTITY_ITEMS}〜${MAX_QUANTITY_ITEMS}本`}
            inputProps={{ ...NUMBER_INPUT, placeholder: "例: 3" }}
            announce
          />
          <RadioGroupField
            label="値引きの種類"
            meta={fields.quantityDiscountKind}
            options={KIND_OPTIONS}
            optionsClassName="grid gap-2 sm:grid-cols-2"
            announce
          />
          <Field
            label="値引き（円 または %）"
            meta={fields.quantityDiscountValue}
            type="text"
            hint={`%の場合は1〜${MAX_PROMOTION_PERCENT}`}
            inputProps={{ ...NUMBER_INPUT, placeholder: "例: 300" }}
            announce
          />
        </fieldset>

        <SubmitRow busy={busy} busyLabel="保存中...">
          キャンペーン価格を保存
        </SubmitRow>
      </Form>
    </SettingsSection>
  );
}
