import { eq, or } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { checkouts, orders } from "../db/schema";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { paymentReceivedMail } from "../mail/templates/konbini-payment.server";
import type { KonbiniVoucher, PaymentIntentState } from "../payments/types";
import type { Order } from "./orders.server";
import { createOrder, type PaidCheckout } from "./order-creation.server";
import { orderStatusUrl, promisedDeliveryDay } from "./order-status.server";

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
  const voucher = reportedVoucher(intent);
  const result = db().transaction(
    (tx) => {
      const existing = orderOfPayment(tx, intent);
      if (existing) return recordForExistingOrder(tx, existing, intent, voucher);
      const checkout = paidCheckout(tx, intent);
      const total = checkout.pricedLines.reduce((sum, line) => sum + line.price, 0);
      const refusal = paymentMismatch(intent, total);
      if (refusal) return refusal;
      return { ok: true as const, created: true, ...createOrder(tx, { intent, checkout, total, voucher }) };
    },
    { behavior: "immediate" },
  );
  reportRecordedPayment(intent, result);
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
  return {
    ok: true as const,
    order: existing,
    created: false,
    createdUserId: null,
    secondPayment: existing.paymentIntentId !== intent.id,
  };
}

/** 入金待ち (or 期限切れ) → paid: the money is in, so the order is made, and the customer is told. */
function markStorePaymentIn(tx: Tx, existing: Order): CreateOrderResult {
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

/** The checkout the payment was made for; a payment without one is a fault, not an order. */
function paidCheckout(tx: Tx, intent: PaymentIntentState): PaidCheckout {
  const checkout = intent.checkoutId
    ? tx.select().from(checkouts).where(eq(checkouts.id, intent.checkoutId)).get()
    : undefined;
  if (!checkout?.pricedLines || !checkout.customerEmail || !checkout.customerName)
    throw new Error(`payment ${intent.id} has no usable checkout`);
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
}
