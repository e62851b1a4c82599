import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import type { useFetcher } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { FieldError } from "~/components/forms";
import {
  athleteRowSchema,
  displayStatus,
  isLegacyStatus,
  MAX_ATHLETE_NUMBER,
  MAX_PRICE,
  STATUS_STYLES,
  UNCATEGORISED,
} from "~/lib/schemas/athlete-schemas";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import { COLUMN_IDS, FetcherReply, RowButton, SelectCell, STICKY_CELL } from "./table-columns";
import { athleteLabel, type RowProps } from "./table-state";

type RowFieldName =
  | "athleteNumber"
  | "name"
  | "category"
  | "verticalVideoPrice"
  | "horizontalVideoPrice"
  | "videoStatus"
  | "photoStatus";

type FieldErrors = Record<string, string[] | null | undefined>;

/** A posted value echoed back by a failed plain form post, else the stored one. */
function echoed(lastResult: SubmissionResult<string[]> | null, name: RowFieldName, stored: string): string {
  const value = lastResult?.initialValue?.[name];
  return typeof value === "string" ? value : stored;
}

/**
 * The inputs of one row. Plain inputs checked with the row's zod schema on submit (the
 * same schema the server uses), not a form library per row: a page has 50 of these and
 * each is rendered on the server. Each input is labelled by its column's header.
 */
export function AthleteRowFields({
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
  const formId = `athlete-${athlete.id}`;
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors: FieldErrors = clientErrors ?? lastResult?.error ?? {};
  const categoryOptions = [...context.categories];
  if (athlete.category && !categoryOptions.includes(athlete.category)) categoryOptions.push(athlete.category);
  const label = athleteLabel(athlete);
  const price = (value: number | null) => (value === null ? "" : String(value));
  const field = (name: RowFieldName, labelledBy: string) => ({
    id: `${formId}-${name}`,
    name,
    form: formId,
    "aria-labelledby": labelledBy,
    "aria-invalid": errors[name]?.length ? true : undefined,
    "aria-describedby": errors[name]?.length ? `${formId}-${name}-error` : undefined,
  });
  const priceInput = (
    name: "verticalVideoPrice" | "horizontalVideoPrice",
    stored: number | null,
    labelledBy: string,
  ) => (
    <input
      {...field(name, labelledBy)}
      type="number"
      defaultValue={echoed(lastResult, name, price(stored))}
      min={0}
      max={MAX_PRICE}
      step={100}
      inputMode="numeric"
      placeholder="未設定"
      className="field-input"
    />
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.formNoValidate) return;
    const submission = parseForm(new FormData(event.currentTarget, submitter), {
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
      <EditCell formId={formId} name="athleteNumber" errors={errors} className={`left-10 ${STICKY_CELL}`}>
        <input
          {...field("athleteNumber", COLUMN_IDS.number)}
          type="number"
          defaultValue={echoed(lastResult, "athleteNumber", String(athlete.athleteNumber))}
          min={0}
          max={MAX_ATHLETE_NUMBER}
          step={1}
          inputMode="numeric"
          className="field-input"
        />
      </EditCell>
      <EditCell formId={formId} name="name" errors={errors}>
        <input
          {...field("name", COLUMN_IDS.name)}
          type="text"
          defaultValue={echoed(lastResult, "name", athlete.name)}
          className="field-input"
        />
      </EditCell>
      <EditCell formId={formId} name="category" errors={errors}>
        <select
          {...field("category", COLUMN_IDS.category)}
          defaultValue={echoed(lastResult, "category", athlete.category)}
          className="field-input"
        >
          <option value="">{UNCATEGORISED}</option>
          {categoryOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </EditCell>
      <EditCell formId={formId} name="verticalVideoPrice" errors={errors}>
        {priceInput("verticalVideoPrice", athlete.verticalVideoPrice, COLUMN_IDS.vertical)}
      </EditCell>
      <EditCell formId={formId} name="horizontalVideoPrice" errors={errors}>
        {priceInput("horizontalVideoPrice", athlete.horizontalVideoPrice, COLUMN_IDS.horizontal)}
      </EditCell>
      <EditCell formId={formId} name="videoStatus" errors={errors}>
        <StatusSelect
          {...field("videoStatus", COLUMN_IDS.video)}
          value={echoed(lastResult, "videoStatus", athlete.videoStatus)}
          stored={athlete.videoStatus}
        />
      </EditCell>
      <EditCell formId={formId} name="photoStatus" errors={errors}>
        <StatusSelect
          {...field("photoStatus", COLUMN_IDS.photo)}
          value={echoed(lastResult, "photoStatus", athlete.photoStatus)}
          stored={athlete.photoStatus}
        />
      </EditCell>
      <RowActionsCell
        athleteId={athlete.id}
        formId={formId}
        label={label}
        fetcher={fetcher}
        onSubmit={onSubmit}
        saving={saving}
        highlighted={highlighted}
        error={error}
      />
    </tr>
  );
}

/**
 * The row's own form (its inputs join it by the form attribute) with 保存 and 削除, the 2-second
 * 保存しました after a save with JS, and the reason a save or a delete failed.
 */
function RowActionsCell({
  athleteId,
  formId,
  label,
  fetcher,
  onSubmit,
  saving,
  highlighted,
  error,
}: {
  athleteId: number;
  formId: string;
  label: string;
  fetcher: ReturnType<typeof useFetcher<AthleteActionResult>>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  saving: boolean;
  highlighted: boolean;
  error: string | null;
}) {
  return (
    <td className="px-2 py-2 align-top">
      <fetcher.Form method="post" id={formId} noValidate onSubmit={onSubmit} className="flex flex-wrap gap-2">
        <input type="hidden" name="id" value={athleteId} />
        <FetcherReply />
        <RowButton intent="update" tone="save" label={`${label}を保存`}>
          {saving ? "保存中..." : "保存"}
        </RowButton>
        <RowButton intent="delete" tone="danger" label={`${label}を削除`} formNoValidate>
          削除
        </RowButton>
      </fetcher.Form>
      {highlighted ? (
        <p role="status" className="mt-1 text-xs font-semibold text-emerald-700">
          保存しました
        </p>
      ) : null}
      <FieldError errors={error ? [error] : null} announce className="text-xs" />
    </td>
  );
}

/** A cell of an editable row: its input, and under it the input's first error, read out as it appears. */
function EditCell({
  formId,
  name,
  errors,
  className = "",
  children,
}: {
  formId: string;
  name: RowFieldName;
  errors: FieldErrors;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td className={`px-2 py-2 align-top ${className}`.trim()}>
      {children}
      <FieldError errors={errors[name]} id={`${formId}-${name}-error`} announce className="text-xs" />
    </td>
  );
}

/**
 * 販売中 / 確認中 / 受注停止, coloured. A legacy stored value (未撮影 and the like) is the
 * value of the 確認中 option, so saving the row unchanged keeps it.
 */
function StatusSelect({
  value: initial,
  stored,
  ...props
}: {
  id: string;
  name: string;
  form: string;
  value: string;
  stored: string;
  "aria-labelledby": string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const checkingValue = isLegacyStatus(stored) ? stored : "確認中";
  const [value, setValue] = useState(initial);
  return (
    <select
      {...props}
      defaultValue={initial}
      onChange={(event) => setValue(event.target.value)}
      className={`field-input border font-semibold ${STATUS_STYLES[displayStatus(value)]}`}
    >
      <option value="販売中">販売中</option>
      <option value={checkingValue}>確認中</option>
      <option value="受注停止">受注停止</option>
    </select>
  );
}
