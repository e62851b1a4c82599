import { orderDeliverySchema } from "~/lib/schemas/delivery-schemas";
import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { DELIVERED_MESSAGES, deliverOrder } from "~/server/delivery/order-delivery.server";
import { orderByNumber } from "~/server/orders/orders.server";

/**
 * 納品, as in the order list: every line's download URL (all or nothing), the download page,
 * the order to 納品済み, and the delivery mail through the outbox, once per order.
 * `customerEmailSent` is whether the mail went out now (false: queued for a retry, or sent before).
 */
export const loader = jsonApi({
  async POST({ request, params }) {
    await requireApiAdmin(request);
    const order = orderByNumber(params.orderNumber ?? "");
    if (!order) return apiError(404, "注文が見つかりません");
    const { downloadUrls } = await readApiInput(request, orderDeliverySchema);
    const result = await deliverOrder(order.id, downloadUrls);
    if (!result.ok)
      return result.status === 400
        ? apiError(422, result.message, { fields: { downloadUrls: [result.message] } })
        : apiError(result.status, result.message);
    return apiJson({
      orderNumber: order.orderNumber,
      customerEmailSent: result.mail === "sent",
      message: DELIVERED_MESSAGES[result.mail],
    });
  },
});
export const action = loader;
