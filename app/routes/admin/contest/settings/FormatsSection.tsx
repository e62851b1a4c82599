import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { FieldLabel } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { ORIENTATION_LABELS, orientationAt } from "~/lib/rules/pricing";
import { formatAddSchema, formatRenameSchema } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { IntentButton, NameInputRow } from "./setting-forms";
import { replyFormErrors, SettingsSection, type SettingsReply } from "./SettingsSection";

type FormatRow = { id: number; name: string; displayOrder: number };

/**
 * 動画形式: the contest's formats in the order the order form shows them, where the place sets
 * the price (lib/rules/pricing: the first at the athlete's 縦 price, the second at the 横).
 */
export function FormatsSection({
  formats,
  addResult,
  listResult,
  renameResult,
}: {
  formats: FormatRow[];
  addResult: SettingsReply;
  listResult: SettingsReply;
  renameResult: (id: number) => SettingsReply;
}) {
  const [form, fields] = useShopForm({
    id: "format-add",
    lastResult: addResult,
    shouldValidate: "onSubmit",
    onValidate: validateWith(formatAddSchema),
  });
  const busy = useIsPending({ intent: "format-add" });
  return (
    <SettingsSection
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
      <div className="mb-3 empty:hidden">
        <FormError errors={replyFormErrors(listResult)} />
      </div>
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
        <FieldLabel htmlFor={fields.name.id}>新しい動画形式名</FieldLabel>
        <NameInputRow meta={fields.name} placeholder="例: 4K">
          <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
            動画形式を追加
          </button>
        </NameInputRow>
      </Form>
    </SettingsSection>
  );
}

/** What the format at this place sells at (the price rule of lib/rules/pricing), as its badge says. */
function priceRole(index: number): string {
  const orientation = orientationAt(index);
  return orientation ? `${ORIENTATION_LABELS[orientation]}の価格` : "注文フォームに表示されません";
}

const ROW_BUTTON = "min-h-9 rounded-lg border text-sm";

/** One format: its place and price badge, 上へ / 下へ / 削除, and its name with 名前を保存. */
function FormatItem({
  format,
  index,
  last,
  lastResult,
}: {
  format: FormatRow;
  index: number;
  last: boolean;
  lastResult: SettingsReply;
}) {
  const [form, fields] = useShopForm({
    id: `format-${format.id}`,
    lastResult,
    defaultValue: { name: format.name },
    shouldValidate: "onSubmit",
    onValidate: validateWith(formatRenameSchema),
  });
  const move = (direction: "up" | "down") => ({
    intent: "format-move",
    values: { formatId: format.id, direction },
    label: `「${format.name}」を${direction === "up" ? "上へ" : "下へ"}移動`,
    className: `${ROW_BUTTON} min-w-9 border-zinc-300 hover:bg-zinc-100 disabled:opacity-30`,
  });
  return (
    <li className="rounded-lg border border-zinc-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={fields.name.id} className="text-sm font-semibold text-zinc-800">
          {index + 1}番目の動画形式名
        </label>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${orientationAt(index) ? "bg-sky-100 text-sky-800" : "bg-zinc-100 text-zinc-600"}`}
        >
          {priceRole(index)}
        </span>
        <div className="ml-auto flex gap-1">
          <IntentButton {...move("up")} disabled={index === 0}>
            ↑
          </IntentButton>
          <IntentButton {...move("down")} disabled={last}>
            ↓
          </IntentButton>
          <IntentButton
            intent="format-delete"
            values={{ formatId: format.id }}
            label={`動画形式「${format.name}」を削除`}
            className={`${ROW_BUTTON} border-red-300 px-3 text-red-700 hover:bg-red-50`}
          >
            削除
          </IntentButton>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-2">
        <input type="hidden" name="intent" value="format-rename" />
        <input type="hidden" name="formatId" value={format.id} />
        <NameInputRow meta={fields.name}>
          <button
            type="submit"
            className="btn-secondary shrink-0"
            aria-label={`名前を保存（${index + 1}番目の動画形式）`}
          >
            名前を保存
          </button>
        </NameInputRow>
        <div className="mt-2 empty:hidden">
          <FormError id={form.errorId} errors={form.errors} />
        </div>
      </Form>
    </li>
  );
}
