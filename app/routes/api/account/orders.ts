import { requireCustomerSession } from "~/server/accounts/customer-api.server";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";
import { positiveId } from "~/lib/rules/params";
import { jsonApi, apiJson } from "~/server/http/json-api.server";
import { apiRefundStatus } from "~/server/refunds/customer-refunds.server";

/**
 * 購入履歴 as JSON: the same orders as the screen (the account's own, by its address), 10 orders a
 * page (`?page=`), each order line with the spec's user-order fields. `videoDownloadUrl` is the
 * order's download page once the line is delivered, as the screen's download button opens it.
 * A line's お断り (`productionPossible`, the admin list's name) and refund (`refundStatus`,
 * `refundedAmount`) and the order's amount after refunds say what the screen's states say.
 */
export const loader = jsonApi({
  async GET({ request }) {
    const { user } = await requireCustomerSession(request);
    const history = purchaseHistory(
      user.email,
      positiveId(new URL(request.url).searchParams.get("page")) ?? 1,
    );
    // One entry per order line, as the spec's user orders are; the screen groups them by orderNumber.
    const orders = history.orders.flatMap((order) =>
      order.lines.map((line) => ({
        id: line.id,
        orderNumber: order.orderNumber,
        orderDate: order.orderedAt.toISOString(),
        status: order.progress,
        customerEmail: user.email,
        contestName: line.contestName,
        category: line.category,
        bibNumberLabel: order.numberLabel,
        athleteNumber: line.athleteNumber,
        athleteName: line.athleteName,
        style: line.style,
        price: line.price,
        productionPossible: line.refused,
        refundStatus: apiRefundStatus(line.refundState),
        refundedAmount: line.refundedAmount,
        orderTotalAmount: order.totalAmount,
        orderRefundedAmount: order.refunds.refunded + order.refunds.inProgress,
        orderNetAmount: order.refunds.net,
        videoDownloadUrl: line.downloadUrl,
        statusUrl: order.statusPath,
        receiptUrl: order.receiptUrl,
      })),
    );
    return apiJson(
      { orders, page: history.page, pageCount: history.pageCount, total: history.total },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});
export const action = loader;
