import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";
import { postOrderDraft } from "~/server/checkout/order-api.server";
import {
  listOrderGroups,
  ORDER_GROUPS_PAGE_SIZE,
  orderListQuery,
} from "~/server/orders/admin/order-list.server";
import { refundTotals } from "~/lib/rules/refunds";
import { apiRefundStatus } from "~/server/refunds/customer-refunds.server";
import { refundsOfOrders } from "~/server/refunds/order-refunds.server";

/**
 * 動画注文一覧 as the spec's list of order lines: the screen's query (tab, contest, q, page),
 * filtered and paged in SQL by order, so an order's lines are never split across pages.
 */
export const loader = jsonApi({
  async GET({ request }) {
    await requireApiAdmin(request);
    const query = orderListQuery(new URL(request.url).searchParams);
    const { groups, total, pages } = listOrderGroups(query);
    const refundRows = refundsOfOrders(groups.map((order) => order.id));
    return apiJson({
      orderLines: groups.flatMap((order) => {
        // The order's amounts after refunds, as its customer's pages and receipt count them.
        const { refunded, inProgress, net } = refundTotals(order.totalAmount, refundRows.get(order.id) ?? []);
        return order.lines.map((line) => ({
          id: line.id,
          // The line's number: the order's, with -N (完了 and 納品 take either).
          orderNumber: line.lineNumber,
          contestName: line.contestName,
          category: line.category,
          athleteNumber: line.athleteNumber,
          style: line.style,
          // The spec's name for a refused line (true = お断り): the API's published field.
          productionPossible: line.refused,
          price: line.price,
          refundStatus: apiRefundStatus(line.refundState),
          refundedAmount: line.refundState ? line.price : 0,
          orderTotalAmount: order.totalAmount,
          orderRefundedAmount: refunded + inProgress,
          orderNetAmount: net,
          status: line.status,
          videoDownloadUrl: line.videoDownloadUrl,
          orderDate: order.createdAt.toISOString(),
          customerEmail: order.customerEmail,
          customerName: order.customerName,
          paymentStatus: order.paymentStatus,
        }));
      }),
      tab: query.tab,
      page: query.page,
      pageSize: ORDER_GROUPS_PAGE_SIZE,
      pages,
      totalOrders: total,
    });
  },
  // The storefront's call at the same address (docs/api.md, Checkout): the session's order draft.
  POST: postOrderDraft,
});
export const action = loader;
