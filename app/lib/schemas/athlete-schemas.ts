import { z } from "zod";

/** What an admin can choose for an athlete's video and photo: on sale, being checked, orders stopped. */
export const SALES_STATUSES = ["販売中", "確認中", "受注停止"] as const;
export type SalesStatus = (typeof SALES_STATUSES)[number];

/** Values older data still holds; they read as 確認中 and are kept when a row is saved unchanged. */
export const LEGACY_STATUSES = ["未撮影", "撮影完了", "編集中"] as const;

export const ALL_STATUSES = [...SALES_STATUSES, ...LEGACY_STATUSES] as const;
export type AthleteStatusValue = (typeof ALL_STATUSES)[number];

export const UNCATEGORISED = "未分類";
export const MAX_ADD_COUNT = 500;
export const MAX_PRICE = 1_000_000;
export const MAX_ATHLETE_NUMBER = 999_999;
export const DEFAULT_ATHLETE_PRICE = 5000;

/** How a stored status reads on screen: legacy values (and anything unknown) read as 確認中. */
export function displayStatus(value: string): SalesStatus {
  return (SALES_STATUSES as readonly string[]).includes(value) ? (value as SalesStatus) : "確認中";
}

export function isLegacyStatus(value: string): boolean {
  return (LEGACY_STATUSES as readonly string[]).includes(value);
}

/** Badge colours: 販売中 green, 確認中 yellow, 受注停止 red. */
export const STATUS_STYLES: Record<SalesStatus, string> = {
  販売中: "border-emerald-300 bg-emerald-50 text-emerald-800",
  確認中: "border-amber-300 bg-amber-50 text-amber-800",
  受注停止: "border-red-300 bg-red-50 text-red-800",
};

const ADD_COUNT_MESSAGE = "正しい数を入力してください";

/** 選手追加: how many athletes to add at once. */
export const addAthletesSchema = z.object({
  count: z
    .number({ required_error: ADD_COUNT_MESSAGE, invalid_type_error: ADD_COUNT_MESSAGE })
    .int(ADD_COUNT_MESSAGE)
    .min(1, ADD_COUNT_MESSAGE)
    .max(MAX_ADD_COUNT, `${ADD_COUNT_MESSAGE}（一度に追加できるのは${MAX_ADD_COUNT}人までです）`),
});

const priceMessage = "価格は0以上の整数で入力してください";
function price(requiredMessage: string) {
  return z
    .number({ required_error: requiredMessage, invalid_type_error: priceMessage })
    .int(priceMessage)
    .min(0, priceMessage)
    .max(MAX_PRICE, `価格は${MAX_PRICE.toLocaleString("ja-JP")}円以下で入力してください`);
}

const statusField = z.enum(ALL_STATUSES, { errorMap: () => ({ message: "ステータスを選択してください" }) });
const idField = z
  .number({ required_error: "選手が見つかりません", invalid_type_error: "選手が見つかりません" })
  .int()
  .positive("選手が見つかりません");

/** One row of the athlete table, saved as a whole. An empty category means 未分類. */
export const athleteRowSchema = z.object({
  id: idField,
  athleteNumber: z
    .number({
      required_error: "番号を入力してください",
      invalid_type_error: "番号は0以上の整数で入力してください",
    })
    .int("番号は0以上の整数で入力してください")
    .min(0, "番号は0以上の整数で入力してください")
    .max(MAX_ATHLETE_NUMBER, `番号は${MAX_ATHLETE_NUMBER}以下で入力してください`),
  name: z
    // A wrong type only reaches here through the JSON API; it is told in the form's words too.
    .string({ required_error: "選手名を入力してください", invalid_type_error: "選手名を入力してください" })
    .trim()
    .min(1, "選手名を入力してください")
    .max(100, "選手名は100文字以内で入力してください"),
  category: z
    .string({ invalid_type_error: "部門を選択してください" })
    .trim()
    .max(100, "部門名が長すぎます")
    .optional()
    .transform((value) => (!value || value === UNCATEGORISED ? "" : value)),
  verticalVideoPrice: price("価格を入力してください"),
  horizontalVideoPrice: price("価格を入力してください"),
  videoStatus: statusField,
  photoStatus: statusField,
});
export type AthleteRowInput = z.infer<typeof athleteRowSchema>;

const salesStatusChoice = z
  .enum(SALES_STATUSES, { errorMap: () => ({ message: "ステータスを選択してください" }) })
  .optional();

/**
 * The bulk bar: selected ids plus, for 一括更新, any of two prices and two statuses
 * (each optional; at least one). The other bulk actions need only the ids.
 */
export const bulkAthletesSchema = z
  .object({
    intent: z.enum(["bulk-update", "bulk-delete", "bulk-restore", "bulk-purge"], {
      errorMap: () => ({ message: "操作を選んでください" }),
    }),
    ids: z
      .array(idField, {
        required_error: "選手を選択してください",
        invalid_type_error: "選手を選択してください",
      })
      .min(1, "選手を選択してください")
      .max(2000, "一度に操作できるのは2000人までです"),
    verticalVideoPrice: price("").optional(),
    horizontalVideoPrice: price("").optional(),
    videoStatus: salesStatusChoice,
    photoStatus: salesStatusChoice,
    confirm: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (
      value.intent === "bulk-update" &&
      value.verticalVideoPrice === undefined &&
      value.horizontalVideoPrice === undefined &&
      value.videoStatus === undefined &&
      value.photoStatus === undefined
    ) {
      ctx.addIssue({ code: "custom", path: [], message: "変更する価格またはステータスを入力してください" });
    }
    if (value.intent === "bulk-purge" && value.confirm !== "yes") {
      ctx.addIssue({
        code: "custom",
        path: ["confirm"],
        message: "完全に削除する場合は確認欄にチェックを入れてください",
      });
    }
  });
export type BulkAthletesInput = z.infer<typeof bulkAthletesSchema>;

/** What a bulk action did, as the bulk bar's toast and the JSON API's bulk call say it. */
export const BULK_DONE: Record<BulkAthletesInput["intent"], (n: number) => string> = {
  "bulk-update": (n) => `${n}人の価格・ステータスを更新しました。`,
  "bulk-delete": (n) => `${n}人を削除しました（削除済みから復元できます）。`,
  "bulk-restore": (n) => `${n}人を復元しました。`,
  "bulk-purge": (n) => `${n}人を完全に削除しました。`,
};

/** One athlete by id: 削除, 復元, 完全に削除 from a row. */
export const singleAthleteSchema = z
  .object({
    intent: z.enum(["delete", "restore", "purge"], { errorMap: () => ({ message: "操作を選んでください" }) }),
    id: idField,
    confirm: z.string().optional(),
  })
  .refine((value) => value.intent !== "purge" || value.confirm === "yes", {
    path: ["confirm"],
    message: "完全に削除する場合は確認してください",
  });

/**
 * One new athlete with its fields (the JSON API's create): the row's own fields and messages.
 * What is left out takes 選手追加's defaults (the next number, 選手{n}, 5,000 yen per format,
 * 未撮影), so `{}` adds one athlete as the add form does.
 */
export const newAthleteSchema = athleteRowSchema.omit({ id: true }).partial();
export type NewAthleteInput = z.infer<typeof newAthleteSchema>;

/**
 * The JSON API's `updates` of many athletes: what 一括更新 sets (prices, sales statuses), or
 * `isDeleted` alone, which is the bulk bar's 削除 (true) or 復元 (false).
 */
export const BULK_UPDATE_FIELDS = [
  "verticalVideoPrice",
  "horizontalVideoPrice",
  "videoStatus",
  "photoStatus",
] as const;
export const isDeletedField = z.boolean({
  invalid_type_error: "isDeleted は true か false で指定してください",
});
export const IS_DELETED_ALONE = "削除・復元（isDeleted）は、価格・ステータスの変更とは別に送ってください";
