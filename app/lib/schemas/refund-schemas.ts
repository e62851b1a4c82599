import { z } from "zod";
import { formatYenShort } from "~/lib/rules/format";

/**
 * 返金 of an order from its page in the back-office: lines chosen at their paid prices, or a typed
 * amount, with a reason the customer is shown. The form posts twice: 確認 (`review`) answers the
 * confirmation, 返金する (`refund`) makes the refund, 戻る (`edit`) brings the form back as typed.
 * Its one-time key (`requestKey`, made when the page is drawn) goes with both posts, so a double
 * click or a replayed post finds the refund the first one made.
 */
export const REFUND_REASON_MAX = 200;

export const REFUND_INTENTS = ["review", "refund", "edit"] as const;

/** 1,000円 and １０００ read as 1000: the admin types what the order page shows. */
function plainDigits(value: unknown) {
  if (typeof value !== "string") return value;
  return value
    .replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[,，円\s]/g, "");
}

/**
 * The form's schema, for what is left to refund (`left`, shown beside the amount): the browser
 * checks the amount against it before posting, and the server again (refundOrder checks it once
 * more under the order's lock, against what is left at that moment).
 */
export function refundFormSchema({ left }: { left: number }) {
  return z
    .object({
      intent: z.enum(REFUND_INTENTS).default("review"),
      requestKey: z
        .string({ required_error: "画面を再読み込みしてください" })
        .min(1, "画面を再読み込みしてください")
        .max(100, "画面を再読み込みしてください"),
      lineIds: z
        .array(
          z.number({ invalid_type_error: "明細が見つかりません" }).int().positive("明細が見つかりません"),
        )
        .max(200, "明細が多すぎます")
        .default([]),
      amount: z
        .preprocess(
          plainDigits,
          z
            .number({ invalid_type_error: "返金額は数字で入力してください（例: 3000）" })
            .int("返金額は1円単位で入力してください")
            .min(1, "返金額は1円以上で入力してください")
            .max(
              left,
              left > 0
                ? `返金できるのは残りの${formatYenShort(left)}までです`
                : "返金できる金額が残っていません",
            ),
        )
        .optional(),
      reason: z
        .string({ required_error: "返金の理由を入力してください" })
        .trim()
        .min(1, "返金の理由を入力してください")
        .max(REFUND_REASON_MAX, `返金の理由は${REFUND_REASON_MAX}文字以内で入力してください`),
    })
    .superRefine((value, context) => {
      if (value.lineIds.length > 0 && value.amount !== undefined)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["amount"],
          message: "明細を選ぶか返金額を入力するか、どちらか一方にしてください",
        });
      if (value.lineIds.length === 0 && value.amount === undefined)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["lineIds"],
          message: "返金する明細を選ぶか、返金額を入力してください",
        });
    });
}

export type RefundForm = z.infer<ReturnType<typeof refundFormSchema>>;
