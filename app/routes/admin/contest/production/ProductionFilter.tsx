import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CheckboxField, SelectField } from "~/components/forms";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import type { ProductionFilter as Filter } from "~/lib/rules/production-list";

/**
 * 部門 and 未納品のみ: a GET form, so the list's address says what it shows (the CSV and a printed
 * copy take the same query). Nothing to validate: conform only names and fills the fields.
 */
export function ProductionFilter({
  categories,
  filter,
  unknownCategory,
}: {
  categories: string[];
  filter: Filter;
  unknownCategory: boolean;
}) {
  const [form, fields] = useShopForm({
    id: "production-filter",
    defaultValue: { category: filter.category ?? "", open: filter.openOnly ? "1" : "" },
  });
  return (
    <Form
      method="get"
      role="search"
      aria-label="制作リストの絞り込み"
      {...getFormProps(form)}
      className="flex flex-wrap items-end gap-x-5 gap-y-3 rounded-xl bg-white p-4 shadow-sm print:hidden"
    >
      <div className="min-w-0 basis-48">
        <SelectField
          label="部門"
          meta={fields.category}
          options={[
            { value: "", label: "すべての部門" },
            ...categories.map((name) => ({ value: name, label: name })),
          ]}
        />
      </div>
      <CheckboxField
        label="未納品のみ"
        meta={fields.open}
        // The query's own spelling (open=1), ticked from the filter the page shows.
        inputProps={{ value: "1", defaultChecked: filter.openOnly, className: "size-5 accent-brand-600" }}
        className="flex min-h-11 items-center gap-2"
        labelClassName="text-sm font-semibold text-zinc-800"
      />
      <button type="submit" className="btn-secondary">
        絞り込み
      </button>
      {unknownCategory ? (
        <p role="alert" className="field-error basis-full">
          指定された部門はこの大会にないため、すべての部門を表示しています。
        </p>
      ) : null}
    </Form>
  );
}
