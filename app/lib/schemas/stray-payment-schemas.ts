import { z } from "zod";

/**
 * The ledger of stray payments' two buttons: 全額返金 (`refund`: the payment and the one-time key the
 * page was drawn with, so a double click or a replayed post refunds once) and 再送信 (`resend`: a
 * refund the payment service was not reached for). Only hidden fields: a refusal is the page's
 * message, not a field's.
 */
const RELOAD = "画面を再読み込みしてください。";

const id = (what: string) =>
  z.coerce
    .number({ invalid_type_error: `${what}が見つかりません。${RELOAD}` })
    .int(`${what}が見つかりません。${RELOAD}`)
    .positive(`${what}が見つかりません。${RELOAD}`);

export const strayPaymentStepSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("refund"),
      strayPaymentId: id("決済"),
      requestKey: z.string({ required_error: RELOAD }).min(1, RELOAD).max(100, RELOAD),
    }),
    z.object({ intent: z.literal("resend"), refundId: id("返金") }),
  ],
  { errorMap: () => ({ message: `操作がわかりません。${RELOAD}` }) },
);

export type StrayPaymentStep = z.infer<typeof strayPaymentStepSchema>;
