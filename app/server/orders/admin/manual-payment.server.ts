import { eq } from "drizzle-orm";
import { formatDateTime } from "~/lib/rules/format";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { orders } from "../../db/schema";
import { sendQueuedMailNow } from "../../mail/outbox.server";
import { paymentProvider } from "../../payments/index.server";
import type { PaymentIntentState } from "../../payments/types";
import type { Order } from "../orders.server";
import { markStorePaymentIn, recordPayment } from "../record-payment.server";

/**
 * 入金確認（手動）: a konbini order marked paid by an admin when the customer paid at the store
 * (and shows the receipt) but the provider's word has not come. It is the provider's report made
 * by hand: the same change to paid, the same 「お支払いを確認しました」 mail and promised delivery
 * day (markStorePaymentIn), with who did it and when written on the order.
 *
 * Only an order still waiting may be confirmed so: one the provider already reported, one whose
 * voucher expired or was cancelled is refused. The provider is asked first: a payment it already
 * has is recorded as its own report (the hourly check would have found it), never by hand.
 *
 * The provider's report arriving afterwards finds the order paid by the same payment: recordPayment
 * makes no second order and no stray payment and sends no second mail; it only notes that the
 * money is in at the provider, which is what a refund needs (refunds/order-refunds.server.ts).
 */

export const MANUAL_PAYMENT_MESSAGES = {
  notKonbini: "コンビニ払いの注文ではありません。手動の入金確認はコンビニ払いの注文だけに使えます。",
  confirmedByHand: (by: string, at: Date) =>
    `この注文は入金確認済みです（管理者 ${by} が手動で確認: ${formatDateTime(at)}）。`,
  reported: "決済サービスから入金の連絡があり、入金済みの注文です。手動の入金確認は必要ありません。",
  expired: "お支払い期限切れで取り消された注文です。入金確認はできません。",
  pastDue: (due: Date) =>
    `お支払い期限（${formatDateTime(due)}）を過ぎているため、入金確認はできません。期限内に支払われていれば、決済サービスへの確認（1時間ごと）で自動的に入金済みになります。`,
  voucherEnded:
    "決済サービスでは、この支払いは期限切れ（または取り消し）になっています。入金確認はできません。お客様のレシートの確認番号と金額をもう一度確かめてください。",
} as const;

/** Why this order cannot be confirmed paid by hand now; null when it can. */
export function manualPaymentRefusal(order: Order): string | null {
  if (order.paymentMethod !== "konbini") return MANUAL_PAYMENT_MESSAGES.notKonbini;
  if (order.paymentStatus === "paid")
    return order.manualPaymentConfirmedBy && order.manualPaymentConfirmedAt
      ? MANUAL_PAYMENT_MESSAGES.confirmedByHand(
          order.manualPaymentConfirmedBy,
          order.manualPaymentConfirmedAt,
        )
      : MANUAL_PAYMENT_MESSAGES.reported;
  if (order.paymentStatus === "expired") return MANUAL_PAYMENT_MESSAGES.expired;
  if (order.paymentDueAt && order.paymentDueAt <= now())
    return MANUAL_PAYMENT_MESSAGES.pastDue(order.paymentDueAt);
  return null;
}

export type ManualPaymentResult =
  /** `reported`: the provider had the payment, recorded as its report rather than by hand. */
  { ok: true; reported: boolean } | { ok: false; status: 404 | 409; message: string };

/** What the provider says of the payment now; null when it cannot be asked (then the admin's word stands). */
async function providerIntent(order: Order): Promise<PaymentIntentState | null> {
  try {
    return await paymentProvider().retrieveIntent(order.paymentIntentId);
  } catch (error) {
    console.error(`[payments] 注文 ${order.orderNumber} の支払いを決済サービスに確認できませんでした`, error);
    return null;
  }
}

export async function confirmPaymentByHand(
  orderId: number,
  admin: { email: string },
): Promise<ManualPaymentResult> {
  const order = db().select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return { ok: false, status: 404, message: "注文が見つかりません。" };
  const refused = manualPaymentRefusal(order);
  if (refused) return { ok: false, status: 409, message: refused };
  const intent = await providerIntent(order);
  if (intent?.status === "succeeded") {
    const recorded = recordPayment(intent);
    return recorded.ok ? { ok: true, reported: true } : { ok: false, status: 409, message: recorded.detail };
  }
  // An expired voucher is canceled (the shop's own expiry) or back to requires_payment_method (Stripe's).
  if (intent?.status === "canceled" || intent?.status === "requires_payment_method")
    return { ok: false, status: 409, message: MANUAL_PAYMENT_MESSAGES.voucherEnded };

  // One immediate transaction decides, against the provider's report or the expiry arriving meanwhile.
  const marked = db().transaction(
    (tx) => {
      const current = tx.select().from(orders).where(eq(orders.id, orderId)).get();
      if (!current) return { refusal: "注文が見つかりません。" };
      const why = manualPaymentRefusal(current);
      if (why) return { refusal: why };
      return { marked: markStorePaymentIn(tx, current, { adminEmail: admin.email }) };
    },
    { behavior: "immediate" },
  );
  if (marked.refusal !== undefined) return { ok: false, status: 409, message: marked.refusal };
  console.log(`[payments] 注文 ${order.orderNumber} の入金を管理者 ${admin.email} が手動で確認しました`);
  if (marked.marked.confirmationMailId)
    void sendQueuedMailNow(
      marked.marked.confirmationMailId,
      `confirmation mail for ${order.orderNumber} (入金確認（手動）)`,
    );
  return { ok: true, reported: false };
}
