import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { FieldError } from "~/components/forms";
import {
  athleteRowSchema,
  bulkAthletesSchema,
  displayStatus,
  isLegacyStatus,
  MAX_ATHLETE_NUMBER,
  MAX_PRICE,
  SALES_STATUSES,
  STATUS_STYLES,
  UNCATEGORISED,
} from "~/lib/schemas/athlete-schemas";
import { formatYen } from "~/lib/rules/format";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import type { AthleteRow } from "~/server/catalog/athletes.server";

export type TableContext = {
  contestId: number;
  bibNumberLabel: string;
  categories: string[];
  priceNames: [string, string];
  /** A plain form post's failed row save: that row shows its messages and the typed values. */
  rowResult: AthleteActionResult | null;
};

type Notice = { ok: boolean; message: string };

/** The spec's saved highlight lasts 2 seconds. */
const HIGHLIGHT_MS = 2000;

/** A counter that reads true for HIGHLIGHT_MS after each bump. */
function useFlash(): [boolean, () => void] {
  const [flash, setFlash] = useState(0);
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (flash === 0) return;
    setOn(true);
    const timer = window.setTimeout(() => setOn(false), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);
  return [on, () => setFlash((n) => n + 1)];
}

/**
 * Runs `handle` once for each answer a fetcher brings back, as soon as it arrives (while
 * the page data is still reloading): a row the reload removes must still report.
 */
function useFetcherOutcome(
  fetcher: { data?: AthleteActionResult },
  handle: (result: AthleteActionResult) => void,
) {
  const seen = useRef(fetcher.data);
  const handler = useRef(handle);
  handler.current = handle;
  useEffect(() => {
    if (!fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    handler.current(fetcher.data);
  }, [fetcher.data]);
}

/** The checkbox and number columns stay in view while a phone scrolls the table sideways. */
const STICKY_CELL =
  "sticky z-10 bg-white transition-colors duration-500 group-data-[highlight=saved]:bg-emerald-50";

const COLUMN_IDS = {
  number: "athlete-col-number",
  name: "athlete-col-name",
  category: "athlete-col-category",
  vertical: "athlete-col-price-1",
  horizontal: "athlete-col-price-2",
  video: "athlete-col-video",
  photo: "athlete-col-photo",
};

type PendingBulk = {
  intent: string;
  ids: Set<number>;
  vertical?: number;
  horizontal?: number;
  videoStatus?: string;
  photoStatus?: string;
};

function pendingBulk(formData: FormData | undefined): PendingBulk | null {
  const intent = formData?.get("intent");
  if (!formData || typeof intent !== "string" || !intent.startsWith("bulk-")) return null;
  const number = (name: string) => {
    const value = String(formData.get(name) ?? "");
    return /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const status = (name: string) => {
    const value = String(formData.get(name) ?? "");
    return (SALES_STATUSES as readonly string[]).includes(value) ? value : undefined;
  };
  return {
    intent,
    ids: new Set(formData.getAll("ids").map(Number)),
    vertical: number("verticalVideoPrice"),
    horizontal: number("horizontalVideoPrice"),
    videoStatus: status("videoStatus"),
    photoStatus: status("photoStatus"),
  };
}

/** The values a row shows while a bulk change of it is on its way (optimistic). */
function withBulk(athlete: AthleteRow, bulk: PendingBulk | null): AthleteRow {
  if (!bulk || bulk.intent !== "bulk-update" || !bulk.ids.has(athlete.id)) return athlete;
  return {
    ...athlete,
    verticalVideoPrice: bulk.vertical ?? athlete.verticalVideoPrice,
    horizontalVideoPrice: bulk.horizontal ?? athlete.horizontalVideoPrice,
    videoStatus: bulk.videoStatus ?? athlete.videoStatus,
    photoStatus: bulk.photoStatus ?? athlete.photoStatus,
  };
}

/**
 * The athlete table with its bulk bar: row checkboxes and the bulk fields belong to one
 * form (id "bulk") by the form attribute, so the whole thing posts without JS. With JS
 * the bulk form goes through a fetcher and its effect shows at once.
 */
export function AthleteTable({
  context,
  rows,
  deletedView,
  selectAll,
  bulkResult,
  selectAllLink,
  clearLink,
  purgeLinkFor,
}: {
  context: TableContext;
  rows: AthleteRow[];
  deletedView: boolean;
  selectAll: boolean;
  bulkResult: AthleteActionResult | null;
  selectAllLink: string;
  clearLink: string;
  purgeLinkFor: (id: number) => string;
}) {
  const hydrated = useHydrated();
  const bulkFetcher = useFetcher<AthleteActionResult>({ key: "athlete-bulk" });
  const echoedIds = bulkResult?.reply?.initialValue?.ids;
  const [selected, setSelected] = useState<Set<number>>(() =>
    selectAll ? new Set(rows.map((r) => r.id)) : new Set([echoedIds ?? []].flat().map(Number)),
  );
  const [notice, setNotice] = useState<Notice | null>(null);
  const [highlighted, setHighlighted] = useState<Set<number>>(new Set());
  const [highlightOn, flashHighlight] = useFlash();
  const [purging, setPurging] = useState<{ label: string; confirm: () => void } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const [form, fields] = useForm({
    id: "bulk",
    lastResult: bulkFetcher.data?.reply ?? bulkResult?.reply ?? null,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bulkAthletesSchema }),
  });

  useFetcherOutcome(bulkFetcher, (result) => {
    setNotice({
      ok: result.ok,
      message: result.message ?? (result.ok ? "完了しました。" : "操作に失敗しました。"),
    });
    if (result.ok) {
      setSelected(new Set());
      setHighlighted(new Set(result.ids ?? []));
      flashHighlight();
    }
  });

  const bulk = pendingBulk(bulkFetcher.formData);
  const visibleIds = rows.map((r) => r.id);
  const selectedOnPage = visibleIds.filter((id) => selected.has(id));
  const allSelected = rows.length > 0 && selectedOnPage.length === rows.length;
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const formErrors = [
    form.errors,
    fields.ids.errors,
    fields.confirm.errors,
    fields.verticalVideoPrice.errors,
    fields.horizontalVideoPrice.errors,
    fields.videoStatus.errors,
    fields.photoStatus.errors,
  ]
    .flat()
    .filter((m): m is string => Boolean(m));
  const bulkPending = bulkFetcher.state !== "idle";

  const askPurgeSelected = (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated || selectedOnPage.length === 0 || !formRef.current) return;
    event.preventDefault();
    const formElement = formRef.current;
    setPurging({
      label: `選択した${selectedOnPage.length}人`,
      confirm: () => {
        const formData = new FormData(formElement);
        formData.set("intent", "bulk-purge");
        formData.set("confirm", "yes");
        formData.set("reply", "fetcher");
        bulkFetcher.submit(formData, { method: "post" });
      },
    });
  };

  return (
    <div className="space-y-3">
      <bulkFetcher.Form
        method="post"
        ref={formRef}
        {...getFormProps(form)}
        aria-labelledby="bulk-title"
        className="rounded-xl bg-white p-4 shadow-sm"
      >
        {hydrated ? <input type="hidden" name="reply" value="fetcher" /> : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="bulk-title" className="font-bold">
            選択した選手の一括操作
          </h2>
          <p className="text-sm text-zinc-600" aria-live="polite">
            {hydrated ? `${selectedOnPage.length}人を選択中` : null}
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
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <button
              type="submit"
              name="intent"
              value="bulk-restore"
              className="btn-secondary"
              disabled={bulkPending}
            >
              選択した選手を復元
            </button>
            <label className="js-hidden flex items-center gap-2 text-sm">
              <input type="checkbox" name="confirm" value="yes" className="h-4 w-4 accent-red-600" />
              完全に削除することを確認しました（取り消せません）
            </label>
            <button
              type="submit"
              name="intent"
              value="bulk-purge"
              onClick={askPurgeSelected}
              className="btn bg-red-600 text-white hover:bg-red-700"
              disabled={bulkPending}
            >
              選択した選手を完全に削除
            </button>
          </div>
        ) : (
          <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto_auto] lg:items-end">
            <BulkPrice field={fields.verticalVideoPrice} label={`${context.priceNames[0]}の価格`} />
            <BulkPrice field={fields.horizontalVideoPrice} label={`${context.priceNames[1]}の価格`} />
            <BulkStatus field={fields.videoStatus} label="動画ステータス" />
            <BulkStatus field={fields.photoStatus} label="写真ステータス" />
            <button
              type="submit"
              name="intent"
              value="bulk-update"
              className="col-span-2 btn-primary sm:col-span-2 lg:col-span-1"
              disabled={bulkPending}
            >
              一括更新
            </button>
            <button
              type="submit"
              name="intent"
              value="bulk-delete"
              formNoValidate
              className="col-span-2 btn border border-red-300 bg-white text-red-700 hover:bg-red-50 sm:col-span-2 lg:col-span-1"
              disabled={bulkPending}
            >
              選択した選手を削除
            </button>
          </div>
        )}
        {formErrors.length > 0 ? (
          <p id={form.errorId} role="alert" className="field-error">
            {formErrors[0]}
          </p>
        ) : null}
      </bulkFetcher.Form>

      {notice ? (
        <p
          role={notice.ok ? "status" : "alert"}
          className={`rounded-lg border px-4 py-3 font-medium ${notice.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800"}`}
        >
          {notice.message}
        </p>
      ) : null}

      {rows.length > 0 ? (
        <div className="overflow-x-auto rounded-xl bg-white shadow-sm">
          <table className="w-full min-w-[68rem] table-fixed text-left text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-zinc-600">
              <tr>
                <th className="sticky left-0 z-10 w-10 bg-zinc-50 px-3 py-3 font-medium">
                  {hydrated ? (
                    <input
                      type="checkbox"
                      aria-label="このページの選手をすべて選択"
                      checked={allSelected}
                      onChange={(event) =>
                        setSelected(event.target.checked ? new Set(visibleIds) : new Set())
                      }
                      className="h-4 w-4 accent-brand-600"
                    />
                  ) : (
                    <span className="sr-only">選択</span>
                  )}
                </th>
                <th
                  id={COLUMN_IDS.number}
                  className="sticky left-10 z-10 w-24 bg-zinc-50 px-2 py-3 font-medium"
                >
                  {context.bibNumberLabel}
                </th>
                <th id={COLUMN_IDS.name} className="px-2 py-3 font-medium whitespace-nowrap">
                  選手名
                </th>
                <th id={COLUMN_IDS.category} className="w-36 px-2 py-3 font-medium whitespace-nowrap">
                  部門
                </th>
                <th id={COLUMN_IDS.vertical} className="w-28 px-2 py-3 font-medium whitespace-nowrap">
                  {context.priceNames[0]}の価格
                </th>
                <th id={COLUMN_IDS.horizontal} className="w-28 px-2 py-3 font-medium whitespace-nowrap">
                  {context.priceNames[1]}の価格
                </th>
                <th id={COLUMN_IDS.video} className="w-32 px-2 py-3 font-medium whitespace-nowrap">
                  動画ステータス
                </th>
                <th id={COLUMN_IDS.photo} className="w-32 px-2 py-3 font-medium whitespace-nowrap">
                  写真ステータス
                </th>
                <th className={`${deletedView ? "w-56" : "w-36"} px-2 py-3 font-medium`}>操作</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rows.map((athlete) => {
                const shared = {
                  context,
                  selected: selected.has(athlete.id),
                  onSelect: (on: boolean) => toggle(athlete.id, on),
                  hiddenByBulk: Boolean(bulk && bulk.intent !== "bulk-update" && bulk.ids.has(athlete.id)),
                  highlighted: highlightOn && highlighted.has(athlete.id),
                  onNotice: setNotice,
                };
                return deletedView ? (
                  <DeletedAthleteRow
                    key={athlete.id}
                    athlete={athlete}
                    {...shared}
                    purgeLink={purgeLinkFor(athlete.id)}
                    onAskPurge={hydrated ? (label, confirm) => setPurging({ label, confirm }) : null}
                  />
                ) : (
                  <AthleteRow key={athlete.id} athlete={withBulk(athlete, bulk)} {...shared} />
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {hydrated ? <PurgeDialog target={purging} onClose={() => setPurging(null)} /> : null}
    </div>
  );
}

function BulkPrice({ field, label }: { field: FieldMetadata<number | undefined>; label: string }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <input
        {...getInputProps(field, { type: "number" })}
        min={0}
        max={MAX_PRICE}
        step={100}
        inputMode="numeric"
        placeholder="変更しない"
        className="field-input"
      />
    </div>
  );
}

function BulkStatus({ field, label }: { field: FieldMetadata<string | undefined>; label: string }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <select {...getSelectProps(field)} className="field-input">
        <option value="">変更しない</option>
        {SALES_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </div>
  );
}

type RowProps = {
  athlete: AthleteRow;
  context: TableContext;
  selected: boolean;
  onSelect: (on: boolean) => void;
  hiddenByBulk: boolean;
  highlighted: boolean;
  onNotice: (notice: Notice) => void;
};

function SelectCell({
  athlete,
  selected,
  onSelect,
  readOnly = false,
}: Pick<RowProps, "athlete" | "selected" | "onSelect"> & { readOnly?: boolean }) {
  return (
    <td className={`left-0 px-3 py-2 ${STICKY_CELL} ${readOnly ? "align-middle" : "align-top"}`}>
      <input
        type="checkbox"
        name="ids"
        value={athlete.id}
        form="bulk"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={`${athlete.athleteNumber} ${athlete.name}を選択`}
        className={`${readOnly ? "" : "mt-3"} h-4 w-4 accent-brand-600`}
      />
    </td>
  );
}

/**
 * One editable row. Its inputs belong to the form in the last cell by the form
 * attribute (a form may not wrap table cells). With JS the form posts through a
 * fetcher: the typed values stand at once, a failure puts the saved values back with
 * the reason, and a save lights the row for 2 seconds.
 */
export function AthleteRow({
  athlete,
  context,
  selected,
  onSelect,
  hiddenByBulk,
  highlighted,
  onNotice,
}: RowProps) {
  const fetcher = useFetcher<AthleteActionResult>({ key: `athlete-${athlete.id}` });
  const [rollbacks, setRollbacks] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // A refusal of one field (a number another athlete has) keeps what was typed, with the
  // reason under that field; any other failure puts the saved values back.
  const [fieldReply, setFieldReply] = useState<SubmissionResult<string[]> | null>(null);
  const [saved, flashSaved] = useFlash();
  useFetcherOutcome(fetcher, (result) => {
    if (result.ok) {
      setError(null);
      setFieldReply(null);
      if (result.kind === "row") flashSaved();
      else onNotice({ ok: true, message: result.message ?? "完了しました。" });
    } else {
      if (result.kind === "row" && hasFieldErrors(result.reply)) {
        setFieldReply(result.reply ?? null);
        setError(null);
      } else {
        setFieldReply(null);
        setRollbacks((n) => n + 1);
        setError(result.message ?? "保存に失敗しました。");
      }
      onNotice({
        ok: false,
        message: `${athlete.athleteNumber} ${athlete.name}: ${result.message ?? "保存に失敗しました。"}`,
      });
    }
  });
  const pendingIntent = fetcher.formData?.get("intent");
  if (hiddenByBulk || pendingIntent === "delete") return null;
  const plainPostResult = context.rowResult?.id === athlete.id ? context.rowResult : null;
  return (
    <AthleteRowFields
      key={`${athlete.updatedAt}-${athlete.verticalVideoPrice}-${athlete.horizontalVideoPrice}-${athlete.videoStatus}-${athlete.photoStatus}-${rollbacks}`}
      athlete={athlete}
      context={context}
      selected={selected}
      onSelect={onSelect}
      fetcher={fetcher}
      lastResult={fieldReply ?? plainPostResult?.reply ?? null}
      error={
        error ??
        (plainPostResult && !plainPostResult.ok && !hasFieldErrors(plainPostResult.reply)
          ? (plainPostResult.message ?? null)
          : null)
      }
      saving={pendingIntent === "update"}
      highlighted={saved || highlighted}
    />
  );
}

/** Whether a reply names a field; then the message stands beside that field, not again for the row. */
function hasFieldErrors(reply: SubmissionResult<string[]> | undefined): boolean {
  return Object.entries(reply?.error ?? {}).some(
    ([name, messages]) => name !== "" && Boolean(messages?.length),
  );
}

type RowFieldName =
  | "athleteNumber"
  | "name"
  | "category"
  | "verticalVideoPrice"
  | "horizontalVideoPrice"
  | "videoStatus"
  | "photoStatus";

/** A posted value echoed back by a failed plain form post, else the stored one. */
function echoed(lastResult: SubmissionResult<string[]> | null, name: RowFieldName, stored: string): string {
  const value = lastResult?.initialValue?.[name];
  return typeof value === "string" ? value : stored;
}

/**
 * The inputs of one row. Plain inputs checked with the row's zod schema on submit (the
 * same schema the server uses), not a form library per row: a page has 50 of these and
 * each is rendered on the server.
 */
function AthleteRowFields({
  athlete,
  context,
  selected,
  onSelect,
  fetcher,
  lastResult,
  error,
  saving,
  highlighted,
}: Pick<RowProps, "athlete" | "context" | "selected" | "onSelect"> & {
  fetcher: ReturnType<typeof useFetcher<AthleteActionResult>>;
  lastResult: SubmissionResult<string[]> | null;
  error: string | null;
  saving: boolean;
  highlighted: boolean;
}) {
  const hydrated = useHydrated();
  const formId = `athlete-${athlete.id}`;
  const [clientErrors, setClientErrors] = useState<Record<string, string[] | null> | null>(null);
  const errors = clientErrors ?? lastResult?.error ?? {};
  const categoryOptions = [...context.categories];
  if (athlete.category && !categoryOptions.includes(athlete.category)) categoryOptions.push(athlete.category);
  const label = `${athlete.athleteNumber} ${athlete.name}`;
  const price = (value: number | null) => (value === null ? "" : String(value));
  const field = (name: RowFieldName) => ({
    id: `${formId}-${name}`,
    name,
    form: formId,
    "aria-invalid": errors[name]?.length ? true : undefined,
    "aria-describedby": errors[name]?.length ? `${formId}-${name}-error` : undefined,
  });
  const priceCell = (
    name: "verticalVideoPrice" | "horizontalVideoPrice",
    stored: number | null,
    labelledBy: string,
  ) => (
    <td className="px-2 py-2 align-top">
      <input
        {...field(name)}
        type="number"
        defaultValue={echoed(lastResult, name, price(stored))}
        aria-labelledby={labelledBy}
        min={0}
        max={MAX_PRICE}
        step={100}
        inputMode="numeric"
        placeholder="未設定"
        className="field-input"
      />
      <FieldError errors={errors[name]} id={`${formId}-${name}-error`} announce className="text-xs" />
    </td>
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.formNoValidate) return;
    const submission = parseWithZod(new FormData(event.currentTarget, submitter), {
      schema: athleteRowSchema,
    });
    if (submission.status === "success") {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(submission.error ?? {});
  };
  return (
    <tr
      aria-label={label}
      data-highlight={highlighted ? "saved" : undefined}
      className={`group transition-colors duration-500 ${highlighted ? "bg-emerald-50" : ""}`}
    >
      <SelectCell athlete={athlete} selected={selected} onSelect={onSelect} />
      <td className={`left-10 px-2 py-2 align-top ${STICKY_CELL}`}>
        <input
          {...field("athleteNumber")}
          type="number"
          defaultValue={echoed(lastResult, "athleteNumber", String(athlete.athleteNumber))}
          aria-labelledby={COLUMN_IDS.number}
          min={0}
          max={MAX_ATHLETE_NUMBER}
          step={1}
          inputMode="numeric"
          className="field-input"
        />
        <FieldError
          errors={errors.athleteNumber}
          id={`${formId}-athleteNumber-error`}
          announce
          className="text-xs"
        />
      </td>
      <td className="px-2 py-2 align-top">
        <input
          {...field("name")}
          type="text"
          defaultValue={echoed(lastResult, "name", athlete.name)}
          aria-labelledby={COLUMN_IDS.name}
          className="field-input"
        />
        <FieldError errors={errors.name} id={`${formId}-name-error`} announce className="text-xs" />
      </td>
      <td className="px-2 py-2 align-top">
        <select
          {...field("category")}
          defaultValue={echoed(lastResult, "category", athlete.category)}
          aria-labelledby={COLUMN_IDS.category}
          className="field-input"
        >
          <option value="">{UNCATEGORISED}</option>
          {categoryOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <FieldError errors={errors.category} id={`${formId}-category-error`} announce className="text-xs" />
      </td>
      {priceCell("verticalVideoPrice", athlete.verticalVideoPrice, COLUMN_IDS.vertical)}
      {priceCell("horizontalVideoPrice", athlete.horizontalVideoPrice, COLUMN_IDS.horizontal)}
      <td className="px-2 py-2 align-top">
        <StatusSelect
          {...field("videoStatus")}
          value={echoed(lastResult, "videoStatus", athlete.videoStatus)}
          stored={athlete.videoStatus}
          labelledBy={COLUMN_IDS.video}
          errors={errors.videoStatus}
        />
      </td>
      <td className="px-2 py-2 align-top">
        <StatusSelect
          {...field("photoStatus")}
          value={echoed(lastResult, "photoStatus", athlete.photoStatus)}
          stored={athlete.photoStatus}
          labelledBy={COLUMN_IDS.photo}
          errors={errors.photoStatus}
        />
      </td>
      <td className="px-2 py-2 align-top">
        <fetcher.Form
          method="post"
          id={formId}
          noValidate
          onSubmit={onSubmit}
          className="flex flex-wrap gap-2"
        >
          <input type="hidden" name="id" value={athlete.id} />
          {hydrated ? <input type="hidden" name="reply" value="fetcher" /> : null}
          <button
            type="submit"
            name="intent"
            value="update"
            className="min-h-11 rounded-lg bg-zinc-900 px-3 text-sm font-semibold text-white hover:bg-zinc-700"
            aria-label={`${label}を保存`}
          >
            {saving ? "保存中..." : "保存"}
          </button>
          <button
            type="submit"
            name="intent"
            value="delete"
            formNoValidate
            className="min-h-11 rounded-lg border border-red-300 px-3 text-sm text-red-700 hover:bg-red-50"
            aria-label={`${label}を削除`}
          >
            削除
          </button>
        </fetcher.Form>
        {highlighted ? (
          <p role="status" className="mt-1 text-xs font-semibold text-emerald-700">
            保存しました
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="field-error text-xs">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * 販売中 / 確認中 / 受注停止, coloured. A legacy stored value (未撮影 and the like) is the
 * value of the 確認中 option, so saving the row unchanged keeps it.
 */
function StatusSelect({
  value: initial,
  stored,
  labelledBy,
  errors,
  ...props
}: {
  id: string;
  name: string;
  form: string;
  value: string;
  stored: string;
  labelledBy: string;
  errors?: string[] | null;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const checkingValue = isLegacyStatus(stored) ? stored : "確認中";
  const [value, setValue] = useState(initial);
  return (
    <>
      <select
        {...props}
        defaultValue={initial}
        aria-labelledby={labelledBy}
        onChange={(event) => setValue(event.target.value)}
        className={`field-input border font-semibold ${STATUS_STYLES[displayStatus(value)]}`}
      >
        <option value="販売中">販売中</option>
        <option value={checkingValue}>確認中</option>
        <option value="受注停止">受注停止</option>
      </select>
      <FieldError errors={errors} id={`${props.id}-error`} announce className="text-xs" />
    </>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const shown = displayStatus(status);
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-xs font-bold ${STATUS_STYLES[shown]}`}
    >
      {shown}
    </span>
  );
}

/** A row of the 削除済み view: read-only, with 復元 and 完全に削除. */
export function DeletedAthleteRow({
  athlete,
  selected,
  onSelect,
  hiddenByBulk,
  onNotice,
  purgeLink,
  onAskPurge,
}: RowProps & { purgeLink: string; onAskPurge: ((label: string, confirm: () => void) => void) | null }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<AthleteActionResult>({ key: `athlete-${athlete.id}` });
  const [error, setError] = useState<string | null>(null);
  useFetcherOutcome(fetcher, (result) => {
    setError(result.ok ? null : (result.message ?? "操作に失敗しました。"));
    onNotice({
      ok: result.ok,
      message: result.ok
        ? (result.message ?? "完了しました。")
        : `${athlete.athleteNumber} ${athlete.name}: ${result.message ?? "操作に失敗しました。"}`,
    });
  });
  const pendingIntent = fetcher.formData?.get("intent");
  if (hiddenByBulk || pendingIntent === "restore" || pendingIntent === "purge") return null;
  const label = `${athlete.athleteNumber} ${athlete.name}`;
  const price = (value: number | null) => (value === null ? "未設定" : formatYen(value));
  return (
    <tr aria-label={label} className="text-zinc-700">
      <SelectCell athlete={athlete} selected={selected} onSelect={onSelect} readOnly />
      <td className={`left-10 px-2 py-2 align-middle tabular-nums ${STICKY_CELL}`}>
        {athlete.athleteNumber}
      </td>
      <td className="px-2 py-2 align-middle">{athlete.name}</td>
      <td className="px-2 py-2 align-middle">{athlete.category || UNCATEGORISED}</td>
      <td className="px-2 py-2 align-middle whitespace-nowrap">{price(athlete.verticalVideoPrice)}</td>
      <td className="px-2 py-2 align-middle whitespace-nowrap">{price(athlete.horizontalVideoPrice)}</td>
      <td className="px-2 py-2 align-middle">
        <StatusBadge status={athlete.videoStatus} />
      </td>
      <td className="px-2 py-2 align-middle">
        <StatusBadge status={athlete.photoStatus} />
      </td>
      <td className="px-2 py-2 align-middle">
        <div className="flex flex-wrap gap-2">
          <fetcher.Form method="post">
            <input type="hidden" name="id" value={athlete.id} />
            {hydrated ? <input type="hidden" name="reply" value="fetcher" /> : null}
            <button
              type="submit"
              name="intent"
              value="restore"
              className="min-h-11 rounded-lg border border-zinc-300 px-3 text-sm hover:bg-zinc-100"
              aria-label={`${label}を復元`}
            >
              復元
            </button>
          </fetcher.Form>
          <Link
            to={purgeLink}
            onClick={(event) => {
              if (!onAskPurge) return;
              event.preventDefault();
              onAskPurge(label, () =>
                fetcher.submit(
                  { intent: "purge", id: String(athlete.id), confirm: "yes", reply: "fetcher" },
                  { method: "post" },
                ),
              );
            }}
            className="inline-flex min-h-11 items-center rounded-lg border border-red-300 px-3 text-sm text-red-700 hover:bg-red-50"
            aria-label={`${label}を完全に削除`}
          >
            完全に削除
          </Link>
        </div>
        {error ? (
          <p role="alert" className="field-error text-xs">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/** 完全に削除 asks first (JS); a click outside does not dismiss it, only the buttons do. */
export function PurgeDialog({
  target,
  onClose,
}: {
  target: { label: string; confirm: () => void } | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (target && !ref.current?.open) ref.current?.showModal();
    if (!target) ref.current?.close();
  }, [target]);
  return (
    <dialog
      ref={ref}
      onCancel={onClose}
      aria-labelledby="purge-title"
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-black/40"
    >
      {target ? (
        <div className="p-5">
          <h2 id="purge-title" className="text-lg font-bold">
            本当に完全に削除しますか？
          </h2>
          <p className="mt-2 text-sm text-zinc-700">
            {target.label}を完全に削除します。この操作は取り消せません。
          </p>
          <div className="mt-5 flex justify-end gap-3">
            <button type="button" onClick={onClose} className="btn-secondary">
              キャンセル
            </button>
            <button
              type="button"
              onClick={() => {
                target.confirm();
                onClose();
              }}
              className="btn bg-red-600 text-white hover:bg-red-700"
            >
              完全に削除する
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
