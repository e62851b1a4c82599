import { and, eq } from "drizzle-orm";
import { LIMIT_MESSAGES } from "../../auth/codes/limit-messages.server";
import { db } from "../../db/client.server";
import { orders } from "../../db/schema";
import { requestMailedLink, type MailedLinkRequest } from "../../auth/codes/mailed-link-request.server";
import { queueMail } from "../../mail/outbox.server";
import { orderStatusLinkMail } from "../../mail/templates/order-status-link.server";
import { orderStatusUrl } from "../../core/site-url.server";

/**
 * 注文状況の確認 for a guest without the link: the order number and the address it was placed
 * with. The status page is never shown here; its link is mailed to the order's own address, so
 * knowing (or guessing) a number and an address reveals nothing. The answer is the same text and
 * status whether the number is unknown, the address wrong or both right, and the mail goes out
 * after the answer, so neither the page nor its timing tells which.
 */

export const ORDER_LOOKUP_MESSAGES = {
  requested:
    "入力内容に該当するご注文があれば、注文状況のページのリンクをご注文時のメールアドレスへお送りしました。メールをご確認ください。しばらく待っても届かない場合は、注文番号とメールアドレスをお確かめください。",
  tooMany: LIMIT_MESSAGES.tooManyRequests,
} as const;

/**
 * Mails the status link when the number and the address belong to one order, under the limits
 * every mailed link has (mailed-link-request.server.ts).
 */
export function requestOrderLookup(
  request: Request,
  input: { orderNumber: string; email: string },
): MailedLinkRequest {
  return requestMailedLink(request, {
    kind: "order-lookup",
    email: input.email,
    what: "order status link mail",
    queue: (email) => {
      // Orders keep their address lower-cased (the checkout stores it so, steps.server.ts).
      const order = db()
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          customerEmail: orders.customerEmail,
          customerName: orders.customerName,
          statusToken: orders.statusToken,
        })
        .from(orders)
        .where(and(eq(orders.orderNumber, input.orderNumber), eq(orders.customerEmail, email)))
        .get();
      if (!order) return null;
      return queueMail({
        // The order's own address, never the one typed (they match here, but the order decides).
        to: order.customerEmail,
        // Asked again before the first went out: one mail, not a pile.
        topic: `order-status-link:${order.id}`,
        mail: orderStatusLinkMail({
          customerName: order.customerName,
          orderNumber: order.orderNumber,
          statusUrl: orderStatusUrl(order.statusToken),
        }),
      });
    },
  });
}
