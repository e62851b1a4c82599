import { z } from "zod";
import { formatYenShort } from "~/lib/rules/format";
import { typedYen } from "~/lib/rules/typed-amounts";

/**
 * 返金 of an order from its page in the back-office: lines chosen at their paid prices, or a typed
 * amount, with a reason the customer is shown. The form posts twice: 確認 (`review`) answers the
 * confirmation, 返金する (`refund`) makes the refund, 戻る (`edit`) brings the form back as typed.
 * Its one-time key (`requestKey`, made when the page is drawn) goes with both posts, so a double
 * click or a replayed post finds the refund the first one made.
 */
export const REFUND_REASON_MAX = 200;

export const REFUND_INTENTS = ["review", "refund", "edit"] as const;

export const REFUND_AMOUNT_MESSAGES = {
  notation: "返金額は数字だけで入力してください（空白や記号は使えません。例: 3000）",
  fraction: "返金額は1円単位で入力してください",
  least: "返金額は1円以上で入力してください",
} as const;

/**
 * The typed amount: plain decimal yen as the order page writes it (3000, 3,000, ３，０００,
 * 3,000円; typedYen), never what Number() would also make of it (0x10 as 16, 1e3 as 1,000, +5,
 * " 5 "). Empty is no amount (conform leaves it out), so the form asks for lines or an amount.
 */
function typedRefundAmount(left: number) {
  return z
    .string({ invalid_type_error: REFUND_AMOUNT_MESSAGES.notation })
    .optional()
    .transform((typed, context) => {
      if (typed === undefined) return undefined;
      const yen = typedYen(typed);
      const refused = (message: string) => {
        context.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      };
      if (yen === null)
        return refused(
          /^[0-9０-９]+[.．][0-9０-９]+$/.test(typed)
            ? REFUND_AMOUNT_MESSAGES.fraction
            : REFUND_AMOUNT_MESSAGES.notation,
        );
      if (yen < 1) return refused(REFUND_AMOUNT_MESSAGES.least);
      if (yen > left)
        return refused(
          left > 0 ? `返金できるのは残りの${formatYenShort(left)}までです` : "返金できる金額が残っていません",
        );
      return yen;
    });
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
      amount: typedRefundAmount(left),
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
