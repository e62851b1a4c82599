import { and, eq } from "drizzle-orm";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { db } from "../db/client.server";
import { orders } from "../db/schema";
import { hitOriginLimit } from "../http/rate-limit.server";
import { mailRequester, takeMailAllowance } from "../auth/mail-caps.server";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { orderStatusLinkMail } from "../mail/templates/order-status-link.server";
import { orderStatusUrl } from "./order-status.server";

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
  tooMany: "お申し込みの回数が上限に達しました。しばらく時間をおいてから再度お試しください。",
} as const;

/** Per client address: a school's or a family's shared connection, not a sweep over numbers and addresses. */
const PER_ORIGIN_PER_HOUR = 20;

export type OrderLookupResult = { ok: true } | { ok: false; status: 429; message: string };

/**
 * Mails the status link when the number and the address belong to one order. Every request
 * counts against both limits, match or not, so a refusal says nothing either. Per e-mail
 * address, each requester has its own count (mail-caps.server.ts: 5 an hour, enough for a
 * parent who mistyped a number a few times, too few to try numbers for an address), so a
 * stranger asking about an address does not use up its owner's (decision 0022).
 */
export function requestOrderLookup(
  request: Request,
  input: { orderNumber: string; email: string },
): OrderLookupResult {
  const email = input.email.trim().toLowerCase();
  const perOrigin = hitOriginLimit(request, "order-lookup-ip", PER_ORIGIN_PER_HOUR, HOUR_MS);
  if (!perOrigin.allowed || takeMailAllowance("order-lookup", email, mailRequester(request)))
    return { ok: false, status: 429, message: ORDER_LOOKUP_MESSAGES.tooMany };

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
  if (!order) return { ok: true };
  const mailId = queueMail({
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
  // Not awaited: the answer must not wait on the mail server only when the order exists.
  if (mailId !== null) void sendQueuedMailNow(mailId, "order status link mail");
  return { ok: true };
}
