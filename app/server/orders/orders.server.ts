import { eq, or } from "drizzle-orm";
import { numberLabelOf } from "~/lib/rules/number-label";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { checkouts, contests, orderLines, orders, users } from "../db/schema";
import { orderConfirmationMail } from "../mail/templates/order-confirmation.server";
import { konbiniVoucherMail, paymentReceivedMail } from "../mail/templates/konbini-payment.server";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { baseOrderNumber } from "../delivery/order-delivery.server";
import { orderStatusUrl, promisedDeliveryDay } from "./order-status.server";
import { holdEarlierOrders } from "../accounts/purchase-history.server";
import type { PaymentIntentState } from "../payments/types";
import type { ShopSession } from "../http/session.server";

export type Order = typeof orders.$inferSelect;

/** The spec's order number: the last 8 digits of the millisecond clock. */
export function orderNumberFrom(ms: number): string {
  return String(ms % 100_000_000).padStart(8, "0");
}

/** The shop sells in yen only (Stripe names currencies in lower case). */
export const SHOP_CURRENCY = "jpy";

/** A succeeded payment that must not become its checkout's order; the admin is told, nothing is refunded. */
export type PaymentRefusal = { ok: false; reason: "currency" | "amount"; detail: string };

export type CreateOrderResult =
  | {
      ok: true;
      order: Order;
      created: boolean;
      createdUserId: number | null;
      confirmationMailId?: number | null;
      /** The mail that lets a new auto-login account take in the address's earlier orders. */
      addressMailId?: number | null;
      /** The checkout already had its order from another payment: this one paid twice. */
      secondPayment?: boolean;
      /** A konbini order's store payment came in with this call (入金待ち → paid). */
      paidNow?: boolean;
      /** ...after the shop had already expired the order by its clock. */
      lateAfterExpiry?: boolean;
    }
  | PaymentRefusal;

/**
 * Whether a succeeded payment pays for its checkout: in yen and exactly the total the server
 * computed for the checkout's priced lines. Any other payment (another currency, another amount,
 * e.g. an intent changed at the provider) is not an order, whichever path reports it.
 */
export function paymentMismatch(
  intent: Pick<PaymentIntentState, "amount" | "currency">,
  checkoutTotal: number,
): PaymentRefusal | null {
  if (intent.currency.toLowerCase() !== SHOP_CURRENCY)
    return {
      ok: false,
      reason: "currency",
      detail: `通貨が ${intent.currency} です（jpy のみ受け付けます）`,
    };
  if (intent.amount !== checkoutTotal)
    return {
      ok: false,
      reason: "amount",
      detail: `決済額 ${intent.amount} 円が注文の合計 ${checkoutTotal} 円と一致しません`,
    };
  return null;
}

/**
 * Records what a payment provider reports, exactly once, whichever path reports it (the
 * browser's return, the webhook, start-up reconciliation, the test store's till), even at the
 * same moment: unique indexes on the checkout and the payment make a repeat a no-op.
 * - A succeeded payment without an order makes its order, paid (a card, or a konbini payment
 *   whose voucher step was never reported).
 * - A konbini voucher makes its order 入金待ち with the voucher's details; nothing is made
 *   or delivered until the store payment is reported.
 * - A succeeded payment for an order that waits (or that the shop's clock already expired:
 *   the money is in, so the customer gets the video) marks it paid and mails the customer.
 * Lines and total come from the checkout's priced snapshot, which the payment was made for.
 * A payment that does not pay for it (paymentMismatch), or a second payment for a checkout
 * that already has its order, makes no order and is logged at error level for the admin:
 * nothing is refunded automatically, the admin decides at the provider.
 */
export function recordPayment(intent: PaymentIntentState): CreateOrderResult {
  const voucher = intent.status === "succeeded" ? null : intent.konbini;
  if (intent.status !== "succeeded" && !voucher)
    throw new Error(`payment ${intent.id} has neither succeeded nor a konbini voucher`);
  const result = db().transaction(
    (tx) => {
      const existing = tx
        .select()
        .from(orders)
        .where(
          or(
            eq(orders.paymentIntentId, intent.id),
            intent.checkoutId ? eq(orders.checkoutId, intent.checkoutId) : undefined,
          ),
        )
        .get();
      if (
        existing &&
        existing.paymentIntentId === intent.id &&
        !voucher &&
        existing.paymentStatus !== "paid"
      ) {
        const order = tx
          .update(orders)
          .set({ paymentStatus: "paid", paidAt: now() })
          .where(eq(orders.id, existing.id))
          .returning()
          .get();
        const confirmationMailId = queueMail(
          {
            to: order.customerEmail,
            dedupeKey: `payment-received:${order.id}`,
            mail: paymentReceivedMail({
              ...order,
              statusUrl: orderStatusUrl(order.statusToken),
              promisedDay: promisedDeliveryDay(order.paidAt ?? order.createdAt),
            }),
          },
          tx,
        );
        return {
          ok: true as const,
          order,
          created: false,
          createdUserId: null,
          paidNow: true,
          confirmationMailId,
          lateAfterExpiry: existing.paymentStatus === "expired",
        };
      }
      if (existing)
        return {
          ok: true as const,
          order: existing,
          created: false,
          createdUserId: null,
          secondPayment: existing.paymentIntentId !== intent.id,
        };

      const checkout = intent.checkoutId
        ? tx.select().from(checkouts).where(eq(checkouts.id, intent.checkoutId)).get()
        : undefined;
      if (!checkout?.pricedLines || !checkout.customerEmail || !checkout.customerName)
        throw new Error(`payment ${intent.id} has no usable checkout`);
      const total = checkout.pricedLines.reduce((sum, line) => sum + line.price, 0);
      const refusal = paymentMismatch(intent, total);
      if (refusal) return refusal;
      const contest = checkout.contestId
        ? tx.select().from(contests).where(eq(contests.id, checkout.contestId)).get()
        : undefined;

      const at = now();
      let orderNumber = orderNumberFrom(at.getTime());
      while (tx.select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, orderNumber)).get()) {
        orderNumber = orderNumberFrom(Number(orderNumber) + 1);
      }

      // The auto-login account, made with the password hash taken at confirmation. Its address
      // was shown only by a six-digit code: earlier orders with it wait for a mailed link.
      let createdUserId: number | null = null;
      let addressMailId: number | null = null;
      if (checkout.autoLogin && checkout.pendingPasswordHash) {
        const taken = tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, checkout.customerEmail))
          .get();
        if (!taken) {
          createdUserId = tx
            .insert(users)
            .values({
              email: checkout.customerEmail,
              name: checkout.customerName,
              passwordHash: checkout.pendingPasswordHash,
            })
            .returning({ id: users.id })
            .get().id;
          addressMailId = holdEarlierOrders(tx, {
            id: createdUserId,
            email: checkout.customerEmail,
            name: checkout.customerName,
          });
        }
      }
      const owner = tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, checkout.customerEmail))
        .get();

      const order = tx
        .insert(orders)
        .values({
          orderNumber,
          checkoutId: checkout.id,
          paymentIntentId: intent.id,
          contestId: checkout.contestId,
          contestName: contest?.name ?? "",
          bibNumberLabel: numberLabelOf(contest),
          customerEmail: checkout.customerEmail,
          customerName: checkout.customerName,
          userId: owner?.id ?? null,
          totalAmount: total,
          lineCount: checkout.pricedLines.length,
          paymentMethod: voucher ? "konbini" : "card",
          paymentStatus: voucher ? "awaiting" : "paid",
          paidAt: voucher ? null : at,
          paymentDueAt: voucher?.expiresAt ?? null,
          konbiniConfirmationNumber: voucher?.confirmationNumber ?? null,
          konbiniVoucherUrl: voucher?.hostedVoucherUrl ?? null,
          createdAt: at,
        })
        .returning()
        .get();
      const lines = tx
        .insert(orderLines)
        .values(
          checkout.pricedLines.map((line, index) => ({
            orderId: order.id,
            lineNumber: `${orderNumber}-${index + 1}`,
            contestName: order.contestName,
            category: line.category,
            athleteId: line.athleteId,
            athleteNumber: line.athleteNumber,
            athleteName: line.athleteName,
            style: line.style,
            orientation: line.orientation,
            price: line.price,
            createdAt: at,
          })),
        )
        .returning()
        .all();
      // Queued with the order, so an order never exists without its confirmation on the way
      // (for a konbini order, the voucher: what to pay, where and by when).
      const confirmation = {
        customerName: order.customerName,
        orderNumber: order.orderNumber,
        contestName: order.contestName,
        bibNumberLabel: order.bibNumberLabel,
        lines,
        totalAmount: order.totalAmount,
        statusUrl: orderStatusUrl(order.statusToken),
      };
      const confirmationMailId = queueMail(
        {
          to: order.customerEmail,
          dedupeKey: orderConfirmationKey(order.id),
          mail: voucher
            ? konbiniVoucherMail({
                ...confirmation,
                confirmationNumber: voucher.confirmationNumber,
                dueAt: voucher.expiresAt,
                voucherUrl: voucher.hostedVoucherUrl,
              })
            : orderConfirmationMail({ ...confirmation, promisedDay: promisedDeliveryDay(at) }),
        },
        tx,
      );
      tx.update(checkouts)
        .set({ status: "paid", createdUserId, pendingPasswordHash: null, updatedAt: at })
        .where(eq(checkouts.id, checkout.id))
        .run();
      return { ok: true as const, order, created: true, createdUserId, confirmationMailId, addressMailId };
    },
    { behavior: "immediate" },
  );
  if (!result.ok) {
    console.error(
      `[payments] 決済 ${intent.id}（checkout ${intent.checkoutId ?? "なし"}）からは注文を作成しませんでした: ${result.detail}。返金はしていません。決済サービスの管理画面で確認し、必要なら返金してください`,
    );
  } else if (result.secondPayment) {
    console.error(
      `[payments] 注文 ${result.order.orderNumber} は決済 ${result.order.paymentIntentId} で作成済みですが、同じ注文手続き（checkout ${result.order.checkoutId}）の 2 回目の決済 ${intent.id}（${intent.amount} 円）も成功しました。返金はしていません。決済サービスの管理画面で確認し、必要なら返金してください`,
    );
  } else {
    if (result.lateAfterExpiry)
      console.error(
        `[payments] 期限切れにした注文 ${result.order.orderNumber} の支払い ${intent.id} が後から確認されました。入金済みとして制作対象に戻しました`,
      );
    // The confirmation goes to the verified address of the order, never to one a client names;
    // when SMTP is down the order stands and the outbox retries the mails.
    if (result.confirmationMailId)
      void sendQueuedMailNow(result.confirmationMailId, `confirmation mail for ${result.order.orderNumber}`);
    if (result.addressMailId) void sendQueuedMailNow(result.addressMailId, "earlier-orders mail");
  }
  return result;
}

/** An order by its number, or by one of its lines' numbers (`12345678-2`), as the JSON calls name orders. */
export function orderByNumber(orderNumber: string): Order | null {
  return (
    db()
      .select()
      .from(orders)
      .where(eq(orders.orderNumber, baseOrderNumber(orderNumber)))
      .get() ?? null
  );
}

export function orderById(id: number): Order | null {
  return db().select().from(orders).where(eq(orders.id, id)).get() ?? null;
}

/** The outbox's key of an order's confirmation (or voucher) mail: one per order, ever. */
export function orderConfirmationKey(orderId: number): string {
  return `order-confirmation:${orderId}`;
}

/** The order this session has just made (what /payment-complete shows), or null. */
export function sessionOrder(session: ShopSession): Order | null {
  const orderId = session.get("lastOrderId");
  return orderId ? orderById(orderId) : null;
}
