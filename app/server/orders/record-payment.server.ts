import { eq, or } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { checkouts, orders } from "../db/schema";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { paymentReceivedMail } from "../mail/templates/konbini-payment.server";
import { SHOP_CURRENCY, type KonbiniVoucher, type PaymentIntentState } from "../payments/types";
import { sendStrayPaymentMails, STRAY_PAYMENTS_PATH } from "../refunds/stray-ledger.server";
import { recordStrayPayment } from "../refunds/stray-payments.server";
import { checkoutFromPayment } from "./checkout-from-payment.server";
import type { Order } from "./orders.server";
import { createOrder, type PaidCheckout } from "./order-creation.server";
import { orderStatusUrl } from "../core/site-url.server";
import { promisedDeliveryDay } from "./business-days.server";

/**
 * A payment that must not become its checkout's order: a succeeded one is written in the ledger
 * of stray payments for the admin to refund; nothing is refunded automatically.
 */
export type PaymentRefusal = {
  ok: false;
  reason: "currency" | "amount" | "no_checkout" | "order_not_restorable";
  detail: string;
};

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
 * Lines and total come from the checkout's priced snapshot, which the payment was made for. A
 * payment without a usable checkout (the database lost it: a restore, a volume gone) that carries
 * its order gets the checkout back from it (checkout-from-payment.server.ts), so a voucher or
 * payment made after a snapshot becomes its order whichever path reports it.
 * A succeeded payment that does not pay for it (paymentMismatch), has no usable checkout, or
 * is a second payment for a checkout that already has its order makes no order: it is written
 * in the ledger of stray payments (stray-payments.server.ts), the admins are mailed, and the
 * admin refunds it from the back-office; nothing is refunded automatically.
 */
export function recordPayment(intent: PaymentIntentState): CreateOrderResult {
  const voucher = reportedVoucher(intent);
  let strayMailIds: number[] = [];
  const result = db().transaction(
    (tx): CreateOrderResult => {
      const existing = orderOfPayment(tx, intent);
      if (existing) {
        const recorded = recordForExistingOrder(tx, existing, intent, voucher);
        // Only money that came in is stray: a second voucher is not paid (and may never be).
        if (recorded.ok && recorded.secondPayment && !voucher)
          strayMailIds = recordStrayPayment(tx, {
            intent,
            reason: "second_payment",
            detail: `注文 ${existing.orderNumber} は決済 ${existing.paymentIntentId} で作成済みです`,
            orderId: existing.id,
            customerEmail: existing.customerEmail,
          });
        return recorded;
      }
      let checkout = paidCheckout(tx, intent);
      const refuse = (refusal: PaymentRefusal): PaymentRefusal => {
        if (!voucher)
          strayMailIds = recordStrayPayment(tx, {
            intent,
            reason: refusal.reason,
            detail: refusal.detail,
            customerEmail: checkout?.customerEmail ?? intent.carriedOrder.order?.customerEmail ?? null,
          });
        return refusal;
      };
      if (!checkout && intent.carriedOrder.order) {
        const restored = checkoutFromPayment(tx, intent);
        if (!restored.ok)
          return refuse({
            ok: false,
            reason: "order_not_restorable",
            detail: `注文手続き ${intent.checkoutId ?? "（なし）"} がなく、決済の記録から作り直せません: ${restored.message}`,
          });
        checkout = paidCheckout(tx, intent);
      }
      if (!checkout)
        return refuse({
          ok: false,
          reason: "no_checkout",
          detail: `注文手続き ${intent.checkoutId ?? "（なし）"} が見つからないか、メールアドレスの確認が済んでいません`,
        });
      const total = checkout.pricedLines.reduce((sum, line) => sum + line.price, 0);
      const refusal = paymentMismatch(intent, total);
      if (refusal) return refuse(refusal);
      return { ok: true as const, created: true, ...createOrder(tx, { intent, checkout, total, voucher }) };
    },
    { behavior: "immediate" },
  );
  reportRecordedPayment(intent, result);
  sendStrayPaymentMails(strayMailIds);
  return result;
}

/**
 * What the report is: a succeeded payment (no voucher) or a konbini voucher waiting to be paid.
 * Anything else (a declined card, an intent still open) is not for recordPayment to see.
 */
function reportedVoucher(intent: PaymentIntentState): KonbiniVoucher | null {
  const voucher = intent.status === "succeeded" ? null : intent.konbini;
  if (intent.status !== "succeeded" && !voucher)
    throw new Error(`payment ${intent.id} has neither succeeded nor a konbini voucher`);
  return voucher;
}

/** The order this payment, or its checkout, already made: what makes a repeated report a no-op. */
function orderOfPayment(tx: Tx, intent: PaymentIntentState): Order | undefined {
  return tx
    .select()
    .from(orders)
    .where(
      or(
        eq(orders.paymentIntentId, intent.id),
        intent.checkoutId ? eq(orders.checkoutId, intent.checkoutId) : undefined,
      ),
    )
    .get();
}

/**
 * A report for a checkout that has its order: the store payment of a konbini order that waits
 * (or that the shop's clock already expired) makes it paid; the same report again changes
 * nothing; another payment for the same checkout is a second payment, for the admin to see.
 */
function recordForExistingOrder(
  tx: Tx,
  existing: Order,
  intent: PaymentIntentState,
  voucher: KonbiniVoucher | null,
): CreateOrderResult {
  if (existing.paymentIntentId === intent.id && !voucher && existing.paymentStatus !== "paid")
    return markStorePaymentIn(tx, existing);
  // The provider's own word on a payment an admin confirmed by hand: the order is paid already
  // (no second order, no stray payment, no second mail); that the money is in at the provider is
  // written down, which is what lets the order be refunded (refunds/order-refunds.server.ts).
  if (
    existing.paymentIntentId === intent.id &&
    !voucher &&
    existing.manualPaymentConfirmedAt &&
    !existing.providerPaymentReportedAt
  )
    tx.update(orders).set({ providerPaymentReportedAt: now() }).where(eq(orders.id, existing.id)).run();
  return {
    ok: true as const,
    order: existing,
    created: false,
    createdUserId: null,
    secondPayment: existing.paymentIntentId !== intent.id,
  };
}

/**
 * 入金待ち (or 期限切れ) → paid: the money is in, so the order is made, and the customer is told.
 * `byHand`: an admin's 入金確認（手動） (orders/admin/manual-payment.server.ts), the same change,
 * mail and promised delivery day as the provider's report, written with who did it and when.
 */
export function markStorePaymentIn(
  tx: Tx,
  existing: Order,
  byHand?: { adminEmail: string },
): Extract<CreateOrderResult, { ok: true }> {
  const at = now();
  const order = tx
    .update(orders)
    .set({
      paymentStatus: "paid",
      paidAt: at,
      ...(byHand ? { manualPaymentConfirmedBy: byHand.adminEmail, manualPaymentConfirmedAt: at } : {}),
    })
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

/** The checkout the payment was made for; a payment without a usable one is stray, not an order. */
function paidCheckout(tx: Tx, intent: PaymentIntentState): PaidCheckout | null {
  const checkout = intent.checkoutId
    ? tx.select().from(checkouts).where(eq(checkouts.id, intent.checkoutId)).get()
    : undefined;
  if (!checkout?.pricedLines || !checkout.customerEmail || !checkout.customerName) return null;
  return {
    ...checkout,
    pricedLines: checkout.pricedLines,
    customerEmail: checkout.customerEmail,
    customerName: checkout.customerName,
  };
}

/**
 * After the transaction: a payment that made no order is logged for the admin (nothing is
 * refunded automatically); the mails queued with the order are tried now.
 */
function reportRecordedPayment(intent: PaymentIntentState, result: CreateOrderResult): void {
  if (!result.ok) {
    console.error(
      `[payments] 決済 ${intent.id}（checkout ${intent.checkoutId ?? "なし"}）からは注文を作成しませんでした: ${result.detail}。返金はしていません。管理画面の ${STRAY_PAYMENTS_PATH} で確認し、必要なら返金してください`,
    );
  } else if (result.secondPayment) {
    console.error(
      `[payments] 注文 ${result.order.orderNumber} は決済 ${result.order.paymentIntentId} で作成済みですが、同じ注文手続き（checkout ${result.order.checkoutId}）の 2 回目の決済 ${intent.id}（${intent.amount} 円）も届きました。返金はしていません。管理画面の ${STRAY_PAYMENTS_PATH} で確認し、必要なら返金してください`,
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
}
