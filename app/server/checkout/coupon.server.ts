import { COUPON_CODE_FORMAT_MESSAGE, COUPON_CODE_PATTERN, normaliseCouponCode } from "~/lib/rules/coupons";
import { couponRefusalMessage } from "../promotions/coupon-refusals.server";
import type { PromotionPricing } from "~/lib/rules/promotions";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { completeItems, priceItems } from "../promotions/order-pricing.server";
import { updateCheckout, type Checkout } from "./draft.server";
import { now } from "../core/clock.server";
import { hitOriginLimit, hitRateLimit } from "../http/rate-limit.server";
import { checkCoupon, type CouponCheck } from "../promotions/coupons.server";

/**
 * The coupon of a checkout as its pages show it: the code typed, whether it applied, and if not,
 * why (期限切れ, 使用済み, 対象外の大会, 最低金額 …). The checkout keeps the code while it is
 * refused, so the customer sees it again with the reason and may remove or change it.
 */
export type CheckoutCoupon = {
  code: string;
  couponId: number | null;
  applied: boolean;
  message: string | null;
};

export function checkoutCoupon(
  typedCode: string | null,
  check: CouponCheck | null,
  priced: PromotionPricing<unknown>["coupon"],
): CheckoutCoupon | null {
  if (!typedCode || !check) return null;
  if (!check.ok) return { code: typedCode, couponId: null, applied: false, message: check.message };
  if (priced?.applied)
    return { code: check.coupon.code, couponId: check.coupon.id, applied: true, message: null };
  return {
    code: check.coupon.code,
    couponId: null,
    applied: false,
    message: couponRefusalMessage(priced?.refusal ?? "below_minimum", check.coupon),
  };
}

/**
 * Coupon codes tried per checkout and per client address in an hour: a code is a secret worth
 * money, so the field must not be a way to guess codes. A customer trying her one code a few
 * times stays far below.
 */
export const COUPON_TRY_LIMITS = { perCheckout: 10, perAddress: 30, windowMs: HOUR_MS };

export type CouponApplyResult =
  { ok: true; code: string } | { ok: false; status: 400 | 429; message: string; retryAfterSeconds?: number };

/**
 * The customer's coupon code for her checkout: checked now (its dates, contest, uses and, priced
 * with the checkout's lines, its minimum) and kept on the checkout only when it applies; every
 * later step checks it again. A refused code is said why and not kept.
 */
export function applyCheckoutCoupon(
  request: Request,
  checkout: Checkout,
  contestId: number,
  typed: string,
): CouponApplyResult {
  const code = normaliseCouponCode(typed);
  if (!COUPON_CODE_PATTERN.test(code)) return { ok: false, status: 400, message: COUPON_CODE_FORMAT_MESSAGE };
  const { perCheckout, perAddress, windowMs } = COUPON_TRY_LIMITS;
  const byCheckout = hitRateLimit(`coupon-try:${checkout.id}`, perCheckout, windowMs);
  const limited = byCheckout.allowed
    ? hitOriginLimit(request, "coupon-try", perAddress, windowMs)
    : byCheckout;
  if (!limited.allowed)
    return {
      ok: false,
      status: 429,
      message: "クーポンコードの入力回数が上限に達しました。しばらく時間をおいてから再度お試しください。",
      retryAfterSeconds: limited.retryAfterSeconds,
    };
  const at = now();
  const check = checkCoupon(code, { contestId, checkoutId: checkout.id, email: checkout.customerEmail, at });
  if (!check.ok) return { ok: false, status: 400, message: check.message };
  const priced = priceItems(contestId, completeItems(checkout.items), { at, coupon: check.offer });
  if (priced.ok && priced.coupon?.refusal)
    return { ok: false, status: 400, message: couponRefusalMessage(priced.coupon.refusal, check.coupon) };
  updateCheckout(checkout.id, { couponCode: code });
  return { ok: true, code };
}

/**
 * The customer takes her coupon off: the code goes. A use its payment held stays held while that
 * payment could still be made at the coupon's price (from another tab): the next prepared payment
 * gives it back once the provider has the new amount, or the lease's end does (coupon-uses).
 */
export function removeCheckoutCoupon(checkout: Checkout) {
  updateCheckout(checkout.id, { couponCode: null });
}
