import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiError, apiJson, jsonApi } from "~/server/http/json-api.server";
import { couponEntry, setCouponDisabled } from "~/server/promotions/coupon-admin.server";
import { couponAnswer, requireApiCoupon } from "~/server/promotions/coupon-api.server";

/**
 * 停止 (`…/disable`) and 再開 (`…/enable`), one module under two addresses: which one the path's
 * last segment says. A stopped coupon is refused at every checkout step from now on; orders
 * already made keep theirs.
 */
export const loader = jsonApi({
  async POST({ request, params }) {
    await requireApiAdmin(request);
    const { id } = requireApiCoupon(params);
    const disable = new URL(request.url).pathname.endsWith("/disable");
    setCouponDisabled(id, disable);
    const entry = couponEntry(id);
    return entry ? apiJson(couponAnswer(entry)) : apiError(404, "クーポンが見つかりません");
  },
});
export const action = loader;
