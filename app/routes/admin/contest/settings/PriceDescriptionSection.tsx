import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useRef, useState } from "react";
import { FieldError, FieldLabel, SubmitRow, TextareaField } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import {
  EMPTY_PRICE_ROWS,
  MAX_PRICE_ITEMS,
  priceDescriptionSchema,
} from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { SettingsSection, type SettingsReply } from "./SettingsSection";

type PriceRow = { key: number; name: string; price: string };

/** The rows to show: what was just typed (after a refused save) or what is saved, plus empty rows to fill without JS. */
function initialPriceRows(saved: { name: string; price: string }[], lastResult: SettingsReply): PriceRow[] {
  const typed = lastResult?.initialValue?.items;
  const source = Array.isArray(typed)
    ? typed.map((row) => {
        const fields = typeof row === "object" && row !== null ? (row as Record<string, unknown>) : {};
        return {
          name: typeof fields.name === "string" ? fields.name : "",
          price: typeof fields.price === "string" ? fields.price : "",
        };
      })
    : [
        ...saved,
        ...Array.from(
          { length: Math.max(0, Math.min(EMPTY_PRICE_ROWS, MAX_PRICE_ITEMS - saved.length)) },
          () => ({ name: "", price: "" }),
        ),
      ];
  return source.map((row, key) => ({ key, ...row }));
}

/**
 * 料金説明: free rows of 項目名 and 料金 and a note, shown on the order form's 価格のご案内.
 * Without JavaScript the form offers a few empty rows (a row left blank is not saved); with it,
 * rows are added and removed in place.
 */
export function PriceDescriptionSection({
  description,
  lastResult,
}: {
  description: { items: { name: string; price: string }[]; notes: string };
  lastResult: SettingsReply;
}) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState(() => initialPriceRows(description.items, lastResult));
  const nextKey = useRef(rows.length);
  const [form, fields] = useShopForm({
    id: "price-description",
    lastResult,
    defaultValue: { notes: description.notes },
    shouldValidate: "onSubmit",
    onValidate: validateWith(priceDescriptionSchema),
  });
  // Rows come and go in the browser, so their errors are looked up by the posted names.
  const rowError = (index: number, field: "name" | "price") => form.allErrors[`items[${index}].${field}`];
  const busy = useIsPending({ intent: "price" });
  return (
    <SettingsSection
      id="price"
      title="料金説明"
      description="注文フォームの「価格のご案内」に表示されます。料金は自由に入力できます（数字だけなら「3,000円（税込）」の形で表示）。項目名と料金の両方を空にした行は保存されません。"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value="price" />
        <FormError errors={fields.items.errors} />
        <ul aria-label="料金の項目" className="space-y-3">
          {rows.map((row, index) => (
            <li
              key={row.key}
              className={`grid gap-2 ${hydrated ? "grid-cols-[1fr_6.5rem_auto] sm:grid-cols-[1fr_10rem_auto]" : "grid-cols-[1fr_7rem] sm:grid-cols-[1fr_10rem]"}`}
            >
              <PriceRowInput
                row={row}
                index={index}
                field="name"
                label="項目名"
                placeholder="例: 縦型動画"
                errors={rowError(index, "name")}
              />
              <PriceRowInput
                row={row}
                index={index}
                field="price"
                label="料金"
                placeholder="例: 3000"
                errors={rowError(index, "price")}
              />
              {hydrated ? (
                <div className="pt-6">
                  <button
                    type="button"
                    onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                    className="min-h-11 rounded-lg px-2 text-sm text-zinc-600 hover:bg-zinc-100"
                    aria-label={`削除（${index + 1}行目）`}
                  >
                    削除
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {hydrated ? (
          <button
            type="button"
            className="btn-secondary w-full"
            disabled={rows.length >= MAX_PRICE_ITEMS}
            onClick={() =>
              setRows((current) => [...current, { key: nextKey.current++, name: "", price: "" }])
            }
          >
            ＋ 行を追加
          </button>
        ) : null}
        <TextareaField
          label="備考"
          meta={fields.notes}
          textareaProps={{ rows: 3, placeholder: "例: 価格はすべて税込です。" }}
          announce
        />
        <SubmitRow busy={busy} busyLabel="保存中...">
          料金説明を保存
        </SubmitRow>
      </Form>
    </SettingsSection>
  );
}

/**
 * One side of a price row, posted as `items[index].name` / `.price`. Its id follows the row (not
 * its place), so a label stays with its input while rows above it are removed.
 */
function PriceRowInput({
  row,
  index,
  field,
  label,
  placeholder,
  errors,
}: {
  row: PriceRow;
  index: number;
  field: "name" | "price";
  label: string;
  placeholder: string;
  errors: string[] | undefined;
}) {
  const id = `price-${row.key}-${field}`;
  return (
    <div>
      <FieldLabel htmlFor={id}>
        {label}
        {index + 1}
      </FieldLabel>
      <input
        id={id}
        name={`items[${index}].${field}`}
        defaultValue={row[field]}
        placeholder={placeholder}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${id}-error` : undefined}
        className="field-input"
      />
      <FieldError announce id={`${id}-error`} errors={errors} />
    </div>
  );
}
