import { z } from "zod";

/** お断り of one order line in the order list: the line and the note the customer is sent. */
export const REFUSAL_NOTE_MAX = 500;

export const lineRefusalSchema = z.object({
  lineId: z.coerce
    .number({ invalid_type_error: "明細が見つかりません" })
    .int()
    .positive("明細が見つかりません"),
  note: z
    .string({ required_error: "お客様へのお知らせを入力してください" })
    .trim()
    .min(1, "お客様へのお知らせを入力してください")
    .max(REFUSAL_NOTE_MAX, `お客様へのお知らせは${REFUSAL_NOTE_MAX}文字以内で入力してください`),
});

/** Undoing お断り needs only the line. */
export const lineRefusalWithdrawalSchema = lineRefusalSchema.pick({ lineId: true });
