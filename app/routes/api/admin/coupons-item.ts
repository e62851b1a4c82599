import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiJson, jsonApi, readApiBody, type ApiArgs } from "~/server/http/json-api.server";
import { updateCoupon } from "~/server/promotions/coupon-admin.server";
import {
  couponAnswer,
  couponCallInput,
  couponWriteAnswer,
  requireApiCoupon,
} from "~/server/promotions/coupon-api.server";

/**
 * One coupon, and changing it: the body names only what changes (the rest stays as stored), read
 * with クーポン管理's schema. A used coupon keeps its code, kind and value (409). POST does the
 * same as PATCH, for clients that only post.
 */
async function update({ request, params }: ApiArgs) {
  await requireApiAdmin(request);
  const current = requireApiCoupon(params);
  const values = couponCallInput(await readApiBody(request), current);
  return couponWriteAnswer(updateCoupon(current.id, values), 200);
}

export const loader = jsonApi({
  async GET({ request, params }) {
    await requireApiAdmin(request);
    return apiJson(couponAnswer(requireApiCoupon(params)));
  },
  PATCH: update,
  POST: update,
});
export const action = loader;
