import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { completeOrder } from "~/server/delivery/order-delivery.server";
import { orderByNumber } from "~/server/orders/orders.server";

/** 完了: the order moves to 対応済み without a delivery or a mail, as in the order list. */
export const loader = jsonApi({
  async PATCH({ request, params }) {
    await requireApiAdmin(request);
    const order = orderByNumber(params.orderNumber ?? "");
    if (!order) return apiError(404, "注文が見つかりません");
    // The order exists, so only its payment can refuse it: an unpaid order is neither made nor closed.
    if (!completeOrder(order.id))
      return apiError(409, "完了処理に失敗しました。この注文はお支払いが確認できていません。");
    return apiJson({
      orderNumber: order.orderNumber,
      status: "対応済み",
      message: "注文を対応済みに移動しました。",
    });
  },
});
export const action = loader;
