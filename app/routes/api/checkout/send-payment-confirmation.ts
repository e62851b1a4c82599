import { orderLookupSchema } from "~/lib/schemas/order-lookup-schemas";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";
import { confirmOrderByMail } from "~/server/orders/confirmation-mail.server";
import { sessionOrder } from "~/server/orders/orders.server";

const ORDER_NOT_FOUND = "ご注文が見つかりません";

/**
 * The spec's confirmation mail after paying. The shop already queues it with the order, to the
 * order's own address: this call only makes sure it goes out, for the order this session has just
 * paid for (any other order number is 404, as an order the caller may not see). The spec's `to`,
 * `customerName`, `orderItems`, `contestName` and `totalAmount` are not read: the mail says what
 * the order holds, to the address the order has.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const body = await readApiBody(request);
    const { orderNumber } = parseApiInput(orderLookupSchema.pick({ orderNumber: true }), body);
    const order = sessionOrder(await getSession(request));
    if (!order || order.orderNumber !== orderNumber) return apiError(404, ORDER_NOT_FOUND);
    const mail = await confirmOrderByMail(order);
    return apiJson({
      orderNumber: order.orderNumber,
      customerEmailSent: mail.status === "sent",
      status: mail.status,
      message: {
        sent: `ご注文確認メールを ${order.customerEmail} にお送りしました`,
        queued: "ご注文確認メールは送信待ちです。しばらくしてから届きます。",
        failed: "ご注文確認メールを送信できませんでした。お手数ですが、お問い合わせください。",
      }[mail.status],
    });
  },
});
export const action = loader;
