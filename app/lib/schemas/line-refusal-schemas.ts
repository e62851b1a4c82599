import { z } from "zod";

/**
 * お断り of one order line in the order list: the line, the note the customer is sent, and
 * whether the line is refunded in the same step (「この明細の代金を返金する」, checked by default),
 * with the refund's one-time key made when the list was drawn, so a double click refunds once.
 */
export const REFUSAL_NOTE_MAX = 500;

const refusal = z.object({
  lineId: z.coerce
    .number({ invalid_type_error: "明細が見つかりません" })
    .int()
    .positive("明細が見つかりません"),
  note: z
    .string({ required_error: "お客様へのお知らせを入力してください" })
    .trim()
    .min(1, "お客様へのお知らせを入力してください")
    .max(REFUSAL_NOTE_MAX, `お客様へのお知らせは${REFUSAL_NOTE_MAX}文字以内で入力してください`),
  // A checkbox: "on" when ticked, absent when not.
  refund: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  refundKey: z.string().trim().max(100, "画面を再読み込みしてから、もう一度お断りにしてください").optional(),
});

export const lineRefusalSchema = refusal.refine((value) => !value.refund || !!value.refundKey, {
  path: ["refundKey"],
  message: "画面を再読み込みしてから、もう一度お断りにしてください",
});

/** Undoing お断り needs only the line. */
export const lineRefusalWithdrawalSchema = refusal.pick({ lineId: true });
