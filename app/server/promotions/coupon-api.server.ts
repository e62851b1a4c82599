import { couponFormSchema, type CouponFormInput } from "~/lib/schemas/coupon-schemas";
import { positiveId } from "~/lib/rules/params";
import { apiError, apiJson, parseApiInput } from "../http/json-api.server";
import type { PricedCheckout } from "../checkout/steps.server";
import { couponEntry, type CouponListEntry, type CouponWriteResult } from "./coupon-admin.server";

/**
 * クーポン管理 and the checkout's coupon as JSON calls (docs/api.md, Coupons): a coupon as the
 * admin sees it, the calls' input read with the screen's own schema, and the checkout's pricing
 * after a code is applied or removed.
 */

/** A coupon with its state and figures, times in UTC. */
export function couponAnswer(coupon: CouponListEntry) {
  return {
    id: coupon.id,
    code: coupon.code,
    label: coupon.label,
    kind: coupon.kind,
    value: coupon.value,
    minTotal: coupon.minTotal,
    validFrom: coupon.validFrom?.toISOString() ?? null,
    validUntil: coupon.validUntil?.toISOString() ?? null,
    contests: coupon.contests,
    maxUses: coupon.maxUses,
    maxUsesPerEmail: coupon.maxUsesPerEmail,
    disabledAt: coupon.disabledAt?.toISOString() ?? null,
    state: coupon.state,
    uses: coupon.figures.uses,
    discountGiven: coupon.figures.discountGiven,
    holds: coupon.figures.holds,
    locked: coupon.locked,
    createdAt: coupon.createdAt.toISOString(),
  };
}

/** The coupon of the path's id, or a 404 thrown. */
export function requireApiCoupon(params: Record<string, string | undefined>): CouponListEntry {
  const id = positiveId(params.id);
  const coupon = id ? couponEntry(id) : null;
  if (!coupon) throw apiError(404, "クーポンが見つかりません");
  return coupon;
}

/** The coupon's stored terms as the call's input, so a PATCH names only what changes. */
function asInput(coupon: CouponListEntry): CouponFormInput {
  return {
    code: coupon.code,
    label: coupon.label,
    kind: coupon.kind,
    value: coupon.value,
    minTotal: coupon.minTotal,
    validFrom: coupon.validFrom?.toISOString() ?? null,
    validUntil: coupon.validUntil?.toISOString() ?? null,
    contestIds: coupon.contestIds,
    maxUses: coupon.maxUses,
    maxUsesPerEmail: coupon.maxUsesPerEmail,
  };
}

/** A create's body (every field) or an update's (what changes, over the stored coupon), read with the form's schema: 422 otherwise. */
export function couponCallInput(body: Record<string, unknown>, current: CouponListEntry | null) {
  return parseApiInput(couponFormSchema, current ? { ...asInput(current), ...body } : body);
}

/** The answer to a create or an update: the coupon as listed, or the rule's refusal. */
export function couponWriteAnswer(result: CouponWriteResult, status: 200 | 201): Response {
  if (!result.ok)
    return apiError(
      result.status,
      result.message,
      result.field ? { fields: { [result.field]: [result.message] } } : {},
    );
  const entry = couponEntry(result.coupon.id);
  return entry ? apiJson(couponAnswer(entry), { status }) : apiError(404, "クーポンが見つかりません");
}

/** The checkout's prices as its pages show them, after a code was applied or taken off. */
export function checkoutPricingAnswer(priced: PricedCheckout) {
  return {
    listTotal: priced.listTotal,
    total: priced.total,
    discounts: priced.discounts,
    coupon: priced.coupon,
  };
}
