import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { useRef, useState, type ReactNode } from "react";
import { Field, FieldError, SubmitRow } from "~/components/forms";
import {
  basicInfoSchema,
  categoryAddSchema,
  EMPTY_PRICE_ROWS,
  formatAddSchema,
  formatRenameSchema,
  MAX_PRICE_ITEMS,
  PUBLICATION_CHOICES,
  priceDescriptionSchema,
  publicationSchema,
} from "~/lib/schemas/contest-settings-schemas";
import { ORIENTATION_LABELS, orientationAt } from "~/lib/rules/pricing";
import { useHydrated } from "~/lib/hooks/use-hydrated";

/** What the settings action answers when a form needs correcting: which form (and which row) it was. */
export type SettingsActionData = { intent: string; target: number | null; reply: SubmissionResult<string[]> };
type Result = SubmissionResult<string[]> | null;

function Section({
  id,
  title,
  children,
  description,
}: {
  id: string;
  title: string;
  children: ReactNode;
  description?: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-4 rounded-2xl bg-white p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-zinc-600">{description}</div> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

function FormError({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p
      role="alert"
      className="mb-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
    >
      {errors[0]}
    </p>
  );
}

/** Errors a server reply carries for the whole form (not a field), for the small button forms. */
function replyFormErrors(result: Result): string[] | undefined {
  return result?.error?.[""] ?? undefined;
}

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function BasicInfoSection({
  contest,
  lastResult,
}: {
  contest: { name: string; bibNumberLabel: string };
  lastResult: Result;
}) {
  const [form, fields] = useForm({
    id: "basic-info",
    lastResult,
    defaultValue: { name: contest.name, bibNumberLabel: contest.bibNumberLabel },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: basicInfoSchema }),
  });
  const busy = useBusy("basic");
  return (
    <Section id="basic" title="基本情報">
      <Form
        method="post"
        {...getFormProps(form)}
        key={`${contest.name}\n${contest.bibNumberLabel}`}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="basic" />
        <Field label="大会名" meta={fields.name} type="text" announce />
        <div>
          <label htmlFor={fields.bibNumberLabel.id} className="field-label">
            番号欄の名前
          </label>
          <input
            {...getInputProps(fields.bibNumberLabel, { type: "text" })}
            aria-describedby={`${fields.bibNumberLabel.descriptionId} ${fields.bibNumberLabel.errors ? fields.bibNumberLabel.errorId : ""}`.trim()}
            className="field-input"
          />
          <p id={fields.bibNumberLabel.descriptionId} className="mt-1 text-xs text-zinc-500">
            注文フォームで選手の番号を選ぶ欄の見出しです（例: ゼッケン番号、エントリー番号）。
          </p>
          <FieldError announce id={fields.bibNumberLabel.errorId} errors={fields.bibNumberLabel.errors} />
        </div>
        <SubmitRow busy={busy} busyLabel="保存中...">
          基本情報を保存
        </SubmitRow>
      </Form>
    </Section>
  );
}

type CategoryRow = { id: number; name: string; color: string; athletes: number };

export function CategoriesSection({
  categories,
  lastResult,
  deleteResult,
}: {
  categories: CategoryRow[];
  lastResult: Result;
  deleteResult: Result;
}) {
  const [form, fields] = useForm({
    id: "category-add",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: categoryAddSchema }),
  });
  const navigation = useNavigation();
  const deletingId =
    navigation.formData?.get("intent") === "category-delete" ? navigation.formData.get("categoryId") : null;
  const busy = useBusy("category-add");
  return (
    <Section
      id="categories"
      title="部門"
      description="部門を削除すると、その部門の選手は「未分類」になります（選手は削除されません）。"
    >
      <FormError errors={replyFormErrors(deleteResult)} />
      {categories.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">
          部門はまだありません
        </p>
      ) : (
        <ul aria-label="部門の一覧" className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
          {categories.map((category) => (
            <li
              key={category.id}
              className="flex items-center gap-3 px-3 py-2"
              aria-busy={String(category.id) === deletingId || undefined}
            >
              <span
                aria-hidden="true"
                className="h-5 w-5 shrink-0 rounded-full border border-black/10"
                style={{ backgroundColor: category.color }}
              />
              <span className="min-w-0 flex-1 font-medium break-words">{category.name}</span>
              <span className="shrink-0 text-xs text-zinc-500">選手{category.athletes}人</span>
              <Form method="post" className="shrink-0">
                <input type="hidden" name="intent" value="category-delete" />
                <input type="hidden" name="categoryId" value={category.id} />
                <button
                  type="submit"
                  aria-label={`部門「${category.name}」を削除`}
                  className="rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
                >
                  削除
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" {...getFormProps(form)} key={`add-${categories.length}`} className="mt-4">
        <input type="hidden" name="intent" value="category-add" />
        <label htmlFor={fields.name.id} className="field-label">
          新しい部門名
        </label>
        <div className="flex gap-2">
          <input
            {...getInputProps(fields.name, { type: "text" })}
            placeholder="例: 小学生の部"
            className="field-input"
          />
          <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
            部門を追加
          </button>
        </div>
        <FieldError announce id={fields.name.errorId} errors={fields.name.errors} />
      </Form>
    </Section>
  );
}

type FormatRow = { id: number; name: string; displayOrder: number };

/** What the format at this place sells at (the price rule of lib/pricing), as its badge says. */
function priceRole(index: number): string {
  const orientation = orientationAt(index);
  return orientation ? `${ORIENTATION_LABELS[orientation]}の価格` : "注文フォームに表示されません";
}

export function FormatsSection({
  formats,
  addResult,
  listResult,
  renameResult,
}: {
  formats: FormatRow[];
  addResult: Result;
  listResult: Result;
  renameResult: (id: number) => Result;
}) {
  const [form, fields] = useForm({
    id: "format-add",
    lastResult: addResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formatAddSchema }),
  });
  const busy = useBusy("format-add");
  return (
    <Section
      id="formats"
      title="動画形式"
      description={
        <>
          注文フォームには上から順に表示されます。
          <strong className="font-semibold text-zinc-800">
            1番目の形式は選手の「縦」の価格、2番目の形式は「横」の価格
          </strong>
          で販売されます（3番目以降は注文フォームに表示されません）。
        </>
      }
    >
      <FormError errors={replyFormErrors(listResult)} />
      <ol aria-label="動画形式の一覧" className="space-y-3">
        {formats.map((format, index) => (
          <FormatItem
            key={`${format.id}-${format.name}`}
            format={format}
            index={index}
            last={index === formats.length - 1}
            lastResult={renameResult(format.id)}
          />
        ))}
      </ol>
      <Form method="post" {...getFormProps(form)} key={`add-${formats.length}`} className="mt-4">
        <input type="hidden" name="intent" value="format-add" />
        <label htmlFor={fields.name.id} className="field-label">
          新しい動画形式名
        </label>
        <div className="flex gap-2">
          <input
            {...getInputProps(fields.name, { type: "text" })}
            placeholder="例: 4K"
            className="field-input"
          />
          <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
            動画形式を追加
          </button>
        </div>
        <FieldError announce id={fields.name.errorId} errors={fields.name.errors} />
      </Form>
    </Section>
  );
}

function FormatItem({
  format,
  index,
  last,
  lastResult,
}: {
  format: FormatRow;
  index: number;
  last: boolean;
  lastResult: Result;
}) {
  const [form, fields] = useForm({
    id: `format-${format.id}`,
    lastResult,
    defaultValue: { name: format.name },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formatRenameSchema }),
  });
  const role = priceRole(index);
  return (
    <li className="rounded-lg border border-zinc-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={fields.name.id} className="text-sm font-semibold text-zinc-800">
          {index + 1}番目の動画形式名
        </label>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${orientationAt(index) ? "bg-sky-100 text-sky-800" : "bg-zinc-100 text-zinc-600"}`}
        >
          {role}
        </span>
        <div className="ml-auto flex gap-1">
          <MoveButton
            formatId={format.id}
            direction="up"
            label={`「${format.name}」を上へ移動`}
            disabled={index === 0}
          />
          <MoveButton
            formatId={format.id}
            direction="down"
            label={`「${format.name}」を下へ移動`}
            disabled={last}
          />
          <Form method="post">
            <input type="hidden" name="intent" value="format-delete" />
            <input type="hidden" name="formatId" value={format.id} />
            <button
              type="submit"
              aria-label={`動画形式「${format.name}」を削除`}
              className="min-h-9 rounded-lg border border-red-300 px-3 text-sm text-red-700 hover:bg-red-50"
            >
              削除
            </button>
          </Form>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-2">
        <input type="hidden" name="intent" value="format-rename" />
        <input type="hidden" name="formatId" value={format.id} />
        <div className="flex gap-2">
          <input {...getInputProps(fields.name, { type: "text" })} className="field-input" />
          <button
            type="submit"
            className="btn-secondary shrink-0"
            aria-label={`名前を保存（${index + 1}番目の動画形式）`}
          >
            名前を保存
          </button>
        </div>
        <FieldError announce id={fields.name.errorId} errors={fields.name.errors} />
        <FormError errors={form.errors} />
      </Form>
    </li>
  );
}

function MoveButton({
  formatId,
  direction,
  label,
  disabled,
}: {
  formatId: number;
  direction: "up" | "down";
  label: string;
  disabled: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="format-move" />
      <input type="hidden" name="formatId" value={formatId} />
      <input type="hidden" name="direction" value={direction} />
      <button
        type="submit"
        aria-label={label}
        disabled={disabled}
        className="min-h-9 min-w-9 rounded-lg border border-zinc-300 text-sm hover:bg-zinc-100 disabled:opacity-30"
      >
        {direction === "up" ? "↑" : "↓"}
      </button>
    </Form>
  );
}

type PriceRow = { key: number; name: string; price: string };

/** The rows to show: what was just typed (after a refused save) or what is saved, plus empty rows to fill without JS. */
function initialPriceRows(saved: { name: string; price: string }[], lastResult: Result): PriceRow[] {
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

export function PriceDescriptionSection({
  description,
  lastResult,
}: {
  description: { items: { name: string; price: string }[]; notes: string };
  lastResult: Result;
}) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState(() => initialPriceRows(description.items, lastResult));
  const nextKey = useRef(rows.length);
  const [form, fields] = useForm({
    id: "price-description",
    lastResult,
    defaultValue: { notes: description.notes },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: priceDescriptionSchema }),
  });
  // Rows come and go in the browser, so their errors are looked up by the posted names.
  const rowError = (index: number, field: "name" | "price") => form.allErrors[`items[${index}].${field}`];
  const busy = useBusy("price");
  return (
    <Section
      id="price"
      title="料金説明"
      description="注文フォームの「価格のご案内」に表示されます。料金は自由に入力できます（数字だけなら「3,000円（税込）」の形で表示）。項目名と料金の両方を空にした行は保存されません。"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value="price" />
        <FormError errors={fields.items.errors} />
        <ul aria-label="料金の項目" className="space-y-3">
          {rows.map((row, index) => {
            const nameErrors = rowError(index, "name");
            const priceErrors = rowError(index, "price");
            return (
              <li
                key={row.key}
                className={`grid gap-2 ${hydrated ? "grid-cols-[1fr_6.5rem_auto] sm:grid-cols-[1fr_10rem_auto]" : "grid-cols-[1fr_7rem] sm:grid-cols-[1fr_10rem]"}`}
              >
                <div>
                  <label htmlFor={`price-${row.key}-name`} className="field-label">
                    項目名{index + 1}
                  </label>
                  <input
                    id={`price-${row.key}-name`}
                    name={`items[${index}].name`}
                    defaultValue={row.name}
                    placeholder="例: 縦型動画"
                    aria-invalid={nameErrors ? true : undefined}
                    className="field-input"
                  />
                  <FieldError announce errors={nameErrors} />
                </div>
                <div>
                  <label htmlFor={`price-${row.key}-price`} className="field-label">
                    料金{index + 1}
                  </label>
                  <input
                    id={`price-${row.key}-price`}
                    name={`items[${index}].price`}
                    defaultValue={row.price}
                    placeholder="例: 3000"
                    aria-invalid={priceErrors ? true : undefined}
                    className="field-input"
                  />
                  <FieldError announce errors={priceErrors} />
                </div>
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
            );
          })}
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
        <div>
          <label htmlFor={fields.notes.id} className="field-label">
            備考
          </label>
          <textarea
            {...getTextareaProps(fields.notes)}
            rows={3}
            placeholder="例: 価格はすべて税込です。"
            className="field-input"
          />
          <FieldError announce id={fields.notes.errorId} errors={fields.notes.errors} />
        </div>
        <SubmitRow busy={busy} busyLabel="保存中...">
          料金説明を保存
        </SubmitRow>
      </Form>
    </Section>
  );
}

const PUBLICATION_HINTS: Record<(typeof PUBLICATION_CHOICES)[number], string> = {
  非公開: "ショップに表示されません。",
  公開: "すぐにショップのトップページに表示され、注文を受け付けます。",
  公開予約:
    "指定した日時（日本時間）から注文を受け付けます。それまではトップページに販売開始日時とともに表示されます。",
};

export function PublicationSection({
  contest,
  minScheduleInput,
  lastResult,
}: {
  contest: { sitePublicStatus: string; scheduledPublishDate: string };
  minScheduleInput: string;
  lastResult: Result;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "publication-form",
    lastResult,
    defaultValue: { status: contest.sitePublicStatus, scheduledAt: contest.scheduledPublishDate },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: publicationSchema(new Date()) }),
  });
  const initialStatus =
    typeof fields.status.initialValue === "string" ? fields.status.initialValue : contest.sitePublicStatus;
  const [status, setStatus] = useState(initialStatus);
  const busy = useBusy("publication");
  const showSchedule = !hydrated || status === "公開予約";
  return (
    <Section id="publication" title="公開設定">
      <Form
        method="post"
        {...getFormProps(form)}
        key={`${contest.sitePublicStatus}-${contest.scheduledPublishDate}`}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="publication" />
        <fieldset aria-describedby={fields.status.errors ? fields.status.errorId : undefined}>
          <legend className="field-label">サイトの公開状態</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {PUBLICATION_CHOICES.map((choice) => (
              <div
                key={choice}
                className="rounded-lg border border-zinc-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <label className="flex min-h-7 cursor-pointer items-center gap-2 font-semibold">
                  <input
                    type="radio"
                    name={fields.status.name}
                    value={choice}
                    defaultChecked={initialStatus === choice}
                    onChange={() => setStatus(choice)}
                    aria-describedby={`publication-hint-${choice}`}
                    className="h-4 w-4 shrink-0 accent-brand-600"
                  />
                  {choice}
                </label>
                <p id={`publication-hint-${choice}`} className="mt-1 text-xs text-zinc-600">
                  {PUBLICATION_HINTS[choice]}
                </p>
              </div>
            ))}
          </div>
          <FieldError announce id={fields.status.errorId} errors={fields.status.errors} />
        </fieldset>
        <div hidden={!showSchedule}>
          <label htmlFor={fields.scheduledAt.id} className="field-label">
            公開予約の日時（日本時間）
          </label>
          <input
            {...getInputProps(fields.scheduledAt, { type: "datetime-local" })}
            min={minScheduleInput}
            className="field-input sm:max-w-xs"
          />
          {hydrated ? null : (
            <p className="mt-1 text-xs text-zinc-500">「公開予約」を選んだときだけ使われます。</p>
          )}
          <FieldError announce id={fields.scheduledAt.errorId} errors={fields.scheduledAt.errors} />
        </div>
        <SubmitRow busy={busy} busyLabel="保存中...">
          公開設定を保存
        </SubmitRow>
      </Form>
    </Section>
  );
}
