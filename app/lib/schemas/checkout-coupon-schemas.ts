import { z } from "zod";
import { COUPON_CODE_FORMAT_MESSAGE, COUPON_CODE_PATTERN, normaliseCouponCode } from "../rules/coupons";

/**
 * The confirmation page's coupon form: apply a code, or take the applied one off. The code is
 * normalised as stored (half-width, upper case) before its pattern is checked, so 「ｓｐｒｉｎｇ１０」
 * typed on a Japanese keyboard is SPRING10.
 */
export const checkoutCouponSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("apply-coupon"),
    couponCode: z
      .string({ required_error: "クーポンコードを入力してください" })
      .max(64, COUPON_CODE_FORMAT_MESSAGE)
      .transform(normaliseCouponCode)
      .pipe(z.string().regex(COUPON_CODE_PATTERN, COUPON_CODE_FORMAT_MESSAGE)),
  }),
  z.object({ intent: z.literal("remove-coupon") }),
]);

export const COUPON_FORM_INTENTS = ["apply-coupon", "remove-coupon"] as const;
