import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Link, type useFetcher } from "@remix-run/react";
import { useRef, type MouseEvent } from "react";
import { CheckboxField, Field, SelectField } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { bulkAthletesSchema, MAX_PRICE, SALES_STATUSES } from "~/lib/schemas/athlete-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import type { PurgeTarget } from "./PurgeConfirmation";
import { FetcherReply } from "./table-columns";

const STATUS_CHOICES = [
  { value: "", label: "変更しない" },
  ...SALES_STATUSES.map((status) => ({ value: status, label: status })),
];

const PRICE_INPUT = {
  min: 0,
  max: MAX_PRICE,
  step: 100,
  inputMode: "numeric",
  placeholder: "変更しない",
} as const;

/**
 * The bulk bar: the row checkboxes and these fields belong to one form (id "bulk") by the form
 * attribute, so the whole thing posts without JS. With JS it posts through the table's fetcher.
 * The active view sets prices and statuses or deletes; the 削除済み view restores or purges,
 * which without JS asks for the confirmation box and with JS asks in a dialog.
 */
export function BulkBar({
  fetcher,
  lastResult,
  selectedCount,
  deletedView,
  priceNames,
  selectAllLink,
  clearLink,
  onAskPurge,
}: {
  fetcher: ReturnType<typeof useFetcher<AthleteActionResult>>;
  lastResult: SubmissionResult<string[]> | null;
  /** The rows of this page ticked (JS). */
  selectedCount: number;
  deletedView: boolean;
  priceNames: [string, string];
  selectAllLink: string;
  clearLink: string;
  onAskPurge: ((target: PurgeTarget) => void) | null;
}) {
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useBulkForm(lastResult);
  // The fields' own errors stand under them; the selection has no field of its own in the bar.
  const barError = [form.errors, fields.ids.errors].flat().find((m): m is string => Boolean(m));
  const pending = useIsPending({ fetcher });

  const askPurgeSelected = (event: MouseEvent<HTMLButtonElement>) => {
    if (!onAskPurge || selectedCount === 0 || !formRef.current) return;
    event.preventDefault();
    const formElement = formRef.current;
    onAskPurge({
      label: `選択した${selectedCount}人`,
      confirm: () => {
        const formData = new FormData(formElement);
        formData.set("intent", "bulk-purge");
        formData.set("confirm", "yes");
        formData.set("reply", "fetcher");
        fetcher.submit(formData, { method: "post" });
      },
    });
  };

  return (
    <fetcher.Form
      method="post"
      ref={formRef}
      {...getFormProps(form)}
      aria-labelledby="bulk-title"
      className="rounded-xl bg-white p-4 shadow-sm"
    >
      <FetcherReply />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="bulk-title" className="font-bold">
          選択した選手の一括操作
        </h2>
        <p className="text-sm text-zinc-600" aria-live="polite">
          {hydrated ? `${selectedCount}人を選択中` : null}
          <span className="js-hidden">
            <Link to={selectAllLink} className="text-brand-700 underline">
              このページの全員を選択
            </Link>
            {" / "}
            <Link to={clearLink} className="text-brand-700 underline">
              選択を解除
            </Link>
          </span>
        </p>
      </div>
      {deletedView ? (
        <DeletedViewActions fields={fields} pending={pending} onPurgeClick={askPurgeSelected} />
      ) : (
        <ActiveViewFields fields={fields} pending={pending} priceNames={priceNames} />
      )}
      {barError ? (
        <div className="mt-3">
          <FormError id={form.errorId} errors={[barError]} />
        </div>
      ) : null}
    </fetcher.Form>
  );
}

/** The bar's form, checked on submit only, as the rows are: the ids are the rows' checkboxes, ticked one by one. */
function useBulkForm(lastResult: SubmissionResult<string[]> | null) {
  return useShopForm({
    id: "bulk",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    onValidate: validateWith(bulkAthletesSchema),
  });
}

type BulkFields = ReturnType<typeof useBulkForm>[1];

/** 一括更新 (prices and statuses; a field left at 変更しない keeps each athlete's own) and 削除. */
function ActiveViewFields({
  fields,
  pending,
  priceNames,
}: {
  fields: BulkFields;
  pending: boolean;
  priceNames: [string, string];
}) {
  return (
    // Top-aligned so a field's error under it moves nothing else; the buttons drop by a label's
    // height (field-label: text-sm and mb-1) to stand level with the inputs.
    <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto_auto] lg:items-start">
      <Field
        label={`${priceNames[0]}の価格`}
        meta={fields.verticalVideoPrice}
        type="number"
        inputProps={PRICE_INPUT}
      />
      <Field
        label={`${priceNames[1]}の価格`}
        meta={fields.horizontalVideoPrice}
        type="number"
        inputProps={PRICE_INPUT}
      />
      <SelectField label="動画ステータス" meta={fields.videoStatus} options={STATUS_CHOICES} />
      <SelectField label="写真ステータス" meta={fields.photoStatus} options={STATUS_CHOICES} />
      <button
        type="submit"
        name="intent"
        value="bulk-update"
        className="col-span-2 btn-primary sm:col-span-2 lg:col-span-1 lg:mt-6"
        disabled={pending}
      >
        一括更新
      </button>
      <button
        type="submit"
        name="intent"
        value="bulk-delete"
        formNoValidate
        className="col-span-2 btn border border-red-300 bg-white text-red-700 hover:bg-red-50 sm:col-span-2 lg:col-span-1 lg:mt-6"
        disabled={pending}
      >
        選択した選手を削除
      </button>
    </div>
  );
}

/**
 * 復元 and 完全に削除. Without JS the purge needs the confirmation box ticked; with JS the box is
 * hidden and `onPurgeClick` asks in a dialog instead.
 */
function DeletedViewActions({
  fields,
  pending,
  onPurgeClick,
}: {
  fields: BulkFields;
  pending: boolean;
  onPurgeClick: (event: MouseEvent<HTMLButtonElement>) => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <button type="submit" name="intent" value="bulk-restore" className="btn-secondary" disabled={pending}>
        選択した選手を復元
      </button>
      <div className="js-hidden">
        <CheckboxField
          label="完全に削除することを確認しました（取り消せません）"
          meta={fields.confirm}
          className="flex items-center gap-2"
          labelClassName="text-sm"
          inputProps={{ value: "yes", className: "h-4 w-4 accent-red-600" }}
        />
      </div>
      <button
        type="submit"
        name="intent"
        value="bulk-purge"
        onClick={onPurgeClick}
        className="btn bg-red-600 text-white hover:bg-red-700"
        disabled={pending}
      >
        選択した選手を完全に削除
      </button>
    </div>
  );
}
