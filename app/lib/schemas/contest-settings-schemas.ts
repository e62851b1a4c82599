import { z } from "zod";
import { ACCESS_CODE_MAX, accessCodeProblem } from "../rules/access-code";
import { NAME_WITHOUT_SLUG_MESSAGE, slugKey } from "../rules/slug";
import { TOKYO_OFFSET_MS } from "../rules/tokyo-date";

/**
 * The forms of the 大会設定 tab. Each is posted on its own with an `intent`, so a
 * mistake in one never throws away what was typed in another.
 */

const MAX_NAME = 200;
const MAX_LABEL = 50;

const nonBlank = (message: string, max: number, tooLong: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, tooLong);

const id = z.coerce
  .number({ invalid_type_error: "対象が見つかりません" })
  .int()
  .positive("対象が見つかりません");

export const basicInfoSchema = z.object({
  intent: z.literal("basic"),
  name: nonBlank(
    "大会名を入力してください",
    MAX_NAME,
    `大会名は${MAX_NAME}文字以内で入力してください`,
  ).refine((name) => name === "" || slugKey(name) !== "", NAME_WITHOUT_SLUG_MESSAGE),
  bibNumberLabel: nonBlank(
    "番号欄の名前を入力してください",
    MAX_LABEL,
    `番号欄の名前は${MAX_LABEL}文字以内で入力してください`,
  ),
});

export const categoryAddSchema = z.object({
  intent: z.literal("category-add"),
  name: nonBlank("部門名を入力してください", MAX_LABEL, `部門名は${MAX_LABEL}文字以内で入力してください`),
});

export const categoryDeleteSchema = z.object({ intent: z.literal("category-delete"), categoryId: id });

const formatName = nonBlank(
  "動画形式名を入力してください",
  MAX_LABEL,
  `動画形式名は${MAX_LABEL}文字以内で入力してください`,
);

export const formatAddSchema = z.object({ intent: z.literal("format-add"), name: formatName });
export const formatRenameSchema = z.object({
  intent: z.literal("format-rename"),
  formatId: id,
  name: formatName,
});
/** The JSON API's PUT of a format: the place in the list (0 first), as the media's displayOrder. */
export const formatOrderSchema = z.object({
  displayOrder: z.coerce
    .number({ invalid_type_error: "displayOrder は 0 以上の整数で指定してください" })
    .int("displayOrder は 0 以上の整数で指定してください")
    .min(0, "displayOrder は 0 以上の整数で指定してください"),
});
export const formatDeleteSchema = z.object({ intent: z.literal("format-delete"), formatId: id });
export const formatMoveSchema = z.object({
  intent: z.literal("format-move"),
  formatId: id,
  direction: z.enum(["up", "down"]),
});

export const MAX_PRICE_ITEMS = 20;
/** Rows offered empty below the saved ones, so the form can grow without JavaScript. */
export const EMPTY_PRICE_ROWS = 3;
/** Empty rows are posted too; anything beyond this many is not our form. */
const MAX_POSTED_PRICE_ROWS = 50;

// The form only ever posts text; the wrong types are a JSON caller's, answered in the same words.
const PRICE_ROW_MESSAGE = "料金の項目は項目名（name）と料金（price）の組で入力してください";

const priceRow = z
  .object(
    {
      name: z
        .string({ invalid_type_error: "項目名を入力してください" })
        .trim()
        .max(MAX_LABEL, `項目名は${MAX_LABEL}文字以内で入力してください`)
        .default(""),
      price: z
        .string({ invalid_type_error: "料金を入力してください" })
        .trim()
        .max(MAX_LABEL, `料金は${MAX_LABEL}文字以内で入力してください`)
        .default(""),
    },
    { invalid_type_error: PRICE_ROW_MESSAGE },
  )
  .superRefine((row, ctx) => {
    // A row left blank on both sides is simply not a row: that is how rows are removed without JS.
    if (row.name && !row.price)
      ctx.addIssue({ code: "custom", path: ["price"], message: "料金を入力してください" });
    if (!row.name && row.price)
      ctx.addIssue({ code: "custom", path: ["name"], message: "項目名を入力してください" });
  });

export const priceDescriptionSchema = z.object({
  intent: z.literal("price"),
  items: z
    .array(priceRow, { invalid_type_error: PRICE_ROW_MESSAGE })
    .max(MAX_POSTED_PRICE_ROWS, `料金の項目は${MAX_PRICE_ITEMS}件までです`)
    .default([])
    .refine(
      (rows) => filledPriceItems(rows).length <= MAX_PRICE_ITEMS,
      `料金の項目は${MAX_PRICE_ITEMS}件までです`,
    ),
  notes: z
    .string({ invalid_type_error: "備考は文字で入力してください" })
    .trim()
    .max(1000, "備考は1000文字以内で入力してください")
    .default(""),
});

/** The saved items: the filled rows, in order. */
export function filledPriceItems(
  items: { name: string; price: string }[],
): { name: string; price: string }[] {
  return items.filter((row) => row.name || row.price);
}

export const PUBLICATION_CHOICES = ["非公開", "公開", "公開予約"] as const;

/** "2025-06-01T09:30" typed into a datetime-local field, read as Tokyo time; null when it is not such a value. */
export function tokyoDateTime(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59)
    return null;
  return new Date(ms - TOKYO_OFFSET_MS);
}

/** The value a datetime-local field shows for an instant, in Tokyo time. */
export function toTokyoDateTimeInput(instant: Date | number): string {
  return new Date(new Date(instant).getTime() + TOKYO_OFFSET_MS).toISOString().slice(0, 16);
}

/**
 * 公開設定. 公開予約 needs a date and time after `now` (the server's clock on the server,
 * the browser's in the browser), both read in Tokyo time whatever the device's zone.
 */
export function publicationSchema(now: Date) {
  return z
    .object({
      intent: z.literal("publication"),
      status: z.enum(PUBLICATION_CHOICES, { errorMap: () => ({ message: "公開設定を選択してください" }) }),
      scheduledAt: z.string().trim().optional(),
    })
    .transform((value, ctx) => {
      if (value.status !== "公開予約") return { status: value.status, scheduledAt: null };
      if (!value.scheduledAt) {
        ctx.addIssue({ code: "custom", path: ["scheduledAt"], message: "公開予約の日時を入力してください" });
        return z.NEVER;
      }
      const at = tokyoDateTime(value.scheduledAt);
      if (!at) {
        ctx.addIssue({ code: "custom", path: ["scheduledAt"], message: "日時を正しく入力してください" });
        return z.NEVER;
      }
      if (at.getTime() <= now.getTime()) {
        ctx.addIssue({
          code: "custom",
          path: ["scheduledAt"],
          message: "公開予約の日時には未来の日時を指定してください",
        });
        return z.NEVER;
      }
      return { status: value.status, scheduledAt: at };
    });
}

export type PublicationChoice = z.output<ReturnType<typeof publicationSchema>>;

/**
 * 合言葉と選手名: the contest's 合言葉 (empty: the order form is open to all) and whether the order
 * form shows athletes' numbers without their names. The code is kept as typed, trimmed.
 */
export const accessSchema = z.object({
  intent: z.literal("access"),
  accessCode: z
    .string({ invalid_type_error: "合言葉は文字で入力してください" })
    .trim()
    .max(200, `合言葉は${ACCESS_CODE_MAX}文字以内で入力してください`)
    .default("")
    .superRefine((code, ctx) => {
      const problem = code === "" ? null : accessCodeProblem(code);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  namesHidden: z
    .enum(["on"], { errorMap: () => ({ message: "選手名の表示を選択してください" }) })
    .optional()
    .transform((value) => value === "on"),
});

export type AccessSettings = { accessCode: string; namesHidden: boolean };
