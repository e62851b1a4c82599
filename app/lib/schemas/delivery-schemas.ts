import { z } from "zod";
import { MAX_ATHLETE_NUMBER } from "./athlete-schemas";
import { ORIENTATIONS } from "../rules/pricing";

/** The 納品ファイル tab's forms. Each posts an intent; the file ones name the delivery file. */

const fileId = z.coerce
  .number({ invalid_type_error: "ファイルが見つかりません" })
  .int()
  .positive("ファイルが見つかりません");

/** Full-width digits typed with a Japanese IME count as the number they show. */
const athleteNumber = z.preprocess(
  (value) => (typeof value === "string" ? value.normalize("NFKC").trim() : value),
  z
    .string({ required_error: "番号を入力してください" })
    .min(1, "番号を入力してください")
    .regex(/^\d+$/, "番号は0以上の整数で入力してください")
    .transform(Number)
    .pipe(z.number().max(MAX_ATHLETE_NUMBER, `番号は${MAX_ATHLETE_NUMBER}以下で入力してください`)),
);

/** 割り当て: the admin's own athlete and style for a waiting file. */
export const fileMatchSchema = z.object({
  intent: z.literal("match"),
  fileId,
  athleteNumber,
  orientation: z.enum(ORIENTATIONS, { errorMap: () => ({ message: "スタイルを選択してください" }) }),
});

/** The tab's other buttons (割り当て has its own schema above, for its field errors). */
export const deliveryActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("match-by-name"), fileId }),
  z.object({ intent: z.literal("remove"), fileId }),
  /** 再実行 of a file's failed poster or phone version. */
  z.object({ intent: z.literal("retry"), fileId }),
  /**
   * 一括納品, with the orders of no video to send (every line お断り or refunded) the admin ticked
   * to close as 対応済み (`closeOrderId`, one per ticked box); unticked ones stay open.
   */
  z.object({
    intent: z.literal("deliver-all"),
    closeOrderId: z
      .array(
        z.coerce
          .number({ invalid_type_error: "注文が見つかりません" })
          .int()
          .positive("注文が見つかりません"),
      )
      .max(1000)
      .default([]),
  }),
  z.object({
    intent: z.literal("resend"),
    orderId: z.coerce
      .number({ invalid_type_error: "注文が見つかりません" })
      .int()
      .positive("注文が見つかりません"),
  }),
]);
export type DeliveryAction = z.infer<typeof deliveryActionSchema>;

export const DELIVERY_MESSAGES = {
  missingUrl: "すべての動画のダウンロードURLを入力してください。",
  badUrl: "ダウンロードURLは http:// または https:// で始まるURLを入力してください。",
} as const;

/**
 * 納品 of one order in the order list: a download URL per order line, by the line's id (the
 * form's `url-{lineId}` fields, the JSON call's `downloadUrls`). Whether every line has a good
 * one is the delivery's own rule (deliverOrder), which knows the order's lines.
 */
export const orderDeliverySchema = z.object({
  downloadUrls: z
    .record(
      z.string().regex(/^[1-9]\d{0,15}$/, "明細が見つかりません"),
      z.string({ invalid_type_error: DELIVERY_MESSAGES.badUrl }),
      { required_error: DELIVERY_MESSAGES.missingUrl, invalid_type_error: DELIVERY_MESSAGES.missingUrl },
    )
    .transform((urls) => new Map(Object.entries(urls).map(([lineId, url]) => [Number(lineId), url]))),
});
