import { checkoutCouponCallSchema } from "~/lib/schemas/coupon-schemas";
import { CHECKOUT_API_MESSAGES } from "~/server/checkout/checkout-api.server";
import { pricedCheckout } from "~/server/checkout/steps.server";
import { apiError, apiJson, jsonApi, readApiInput } from "~/server/http/json-api.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { getSession } from "~/server/http/session.server";
import { applyCheckoutCoupon, removeCheckoutCoupon } from "~/server/checkout/coupon.server";
import { checkoutPricingAnswer } from "~/server/promotions/coupon-api.server";

/**
 * The confirmation page's coupon field as a call, for the session's own checkout: POST applies a
 * code (checked now for its dates, contest, uses and minimum; 400 saying why it is refused, 429
 * with Retry-After when codes are tried too often) and answers the new prices; DELETE takes it off.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { code } = await readApiInput(request, checkoutCouponCallSchema, { maxBytes: 4 * 1024 });
    const session = await getSession(request);
    const priced = pricedCheckout(session);
    if (!priced) return apiError(409, CHECKOUT_API_MESSAGES.noCheckout);
    const result = applyCheckoutCoupon(request, priced.checkout, priced.contest.id, code);
    if (!result.ok) return apiError(result.status, result.message, { headers: retryAfterHeaders(result) });
    const after = pricedCheckout(session);
    if (!after) return apiError(409, CHECKOUT_API_MESSAGES.noCheckout);
    return apiJson(checkoutPricingAnswer(after));
  },
  async DELETE({ request }) {
    const session = await getSession(request);
    const priced = pricedCheckout(session);
    if (!priced) return apiError(409, CHECKOUT_API_MESSAGES.noCheckout);
    removeCheckoutCoupon(priced.checkout);
    const after = pricedCheckout(session);
    if (!after) return apiError(409, CHECKOUT_API_MESSAGES.noCheckout);
    return apiJson(checkoutPricingAnswer(after));
  },
});
export const action = loader;
