import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiJson, jsonApi, readApiBody } from "~/server/http/json-api.server";
import { createCoupon, listCoupons } from "~/server/promotions/coupon-admin.server";
import { couponAnswer, couponCallInput, couponWriteAnswer } from "~/server/promotions/coupon-api.server";

/** クーポン管理's list (newest first, each with its state and figures) and 追加. */
export const loader = jsonApi({
  async GET({ request }) {
    await requireApiAdmin(request);
    return apiJson({ coupons: listCoupons().map(couponAnswer) });
  },
  async POST({ request }) {
    await requireApiAdmin(request);
    const values = couponCallInput(await readApiBody(request), null);
    return couponWriteAnswer(createCoupon(values), 201);
  },
});
export const action = loader;
