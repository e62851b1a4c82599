import { and, asc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import { DAY_MS, TOKYO_OFFSET_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { orders } from "../db/schema";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { paymentExpiredMail } from "../mail/templates/konbini-payment.server";
import { paymentProvider, testProvider } from "../payments/index.server";
import type { PaymentIntentState } from "../payments/types";
import type { Order } from "./orders.server";
import { recordPayment } from "./record-payment.server";
import { orderStatusUrl } from "../core/site-url.server";
import { orderByStatusToken } from "./orders.server";

/*
 * コンビニ払い: the customer gets a voucher, pays it at a store before its deadline, or the order
 * ends 期限切れ. Its rules live here: the deadline, the expiry (at the provider first, then the
 * order), the hourly check that catches a lost webhook, and テストモード's till. Making the order
 * 入金待ち and then paid is recordPayment's (orders.server.ts), as for every payment report.
 */

/**
 * Stripe's konbini deadline: 23:59:59 Japan time on the day `days` after the voucher is made
 * (made on Monday with 2 days, it expires on Wednesday at 23:59:59 JST). Japan has no summer time.
 */
export function konbiniDeadline(from: Date, days: number): Date {
  const tokyoDay = Math.floor((from.getTime() + TOKYO_OFFSET_MS) / DAY_MS);
  return new Date((tokyoDay + days + 1) * DAY_MS - TOKYO_OFFSET_MS - 1000);
}

/**
 * テストモード: コンビニ払い chosen on the payment page. The test provider makes the voucher with the
 * deadline Stripe would give it (KONBINI_EXPIRES_AFTER_DAYS, as Stripe's expires_after_days).
 */
export function startTestKonbini(paymentIntentId: string): Promise<PaymentIntentState | null> {
  return testProvider.startKonbini(paymentIntentId, konbiniDeadline(now(), env().KONBINI_EXPIRES_AFTER_DAYS));
}

/**
 * A konbini order whose voucher was not paid in time ends as 期限切れ: nothing is made, the
 * customer is told, and nothing is owed. Only a waiting order changes (a paid one stays paid,
 * a repeated report changes nothing); true when this call expired it.
 */
export function expireOrderPayment(paymentIntentId: string): boolean {
  const expired = db().transaction(
    (tx) => {
      const order = tx
        .update(orders)
        .set({ paymentStatus: "expired" })
        .where(and(eq(orders.paymentIntentId, paymentIntentId), eq(orders.paymentStatus, "awaiting")))
        .returning()
        .get();
      if (!order) return null;
      const mailId = queueMail(
        {
          to: order.customerEmail,
          dedupeKey: `payment-expired:${order.id}`,
          mail: paymentExpiredMail({
            ...order,
            dueAt: order.paymentDueAt,
            statusUrl: orderStatusUrl(order.statusToken),
          }),
        },
        tx,
      );
      return { order, mailId };
    },
    { behavior: "immediate" },
  );
  if (!expired) {
    warnIfConfirmedByHand(paymentIntentId);
    return false;
  }
  console.log(`[payments] 注文 ${expired.order.orderNumber} はお支払い期限を過ぎたため期限切れにしました`);
  if (expired.mailId) void sendQueuedMailNow(expired.mailId, `expiry mail for ${expired.order.orderNumber}`);
  return true;
}

/**
 * The provider says a voucher ended unpaid, but an admin confirmed its order paid by hand (the
 * customer showed a receipt): the order stays paid (its mail is sent, its video may be made), and
 * the admins are told in the log, to look at the receipt and the provider's dashboard again.
 */
function warnIfConfirmedByHand(paymentIntentId: string): void {
  const order = db().select().from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).get();
  if (!order?.manualPaymentConfirmedAt || order.providerPaymentReportedAt) return;
  console.error(
    `[payments] 注文 ${order.orderNumber} は管理者 ${order.manualPaymentConfirmedBy ?? "（不明）"} が手動で入金確認しましたが、決済サービスではこの支払いが期限切れ（未入金）になりました。お客様のレシートと決済サービスの管理画面を確認してください`,
  );
}

/**
 * Ends a waiting order at the provider first, so its voucher can no longer be paid, then here.
 * A store payment that won the race makes the order paid instead.
 */
async function expireAtProvider(order: Order): Promise<"paid" | "expired"> {
  const intent = await paymentProvider().cancelIntent(order.paymentIntentId);
  if (intent?.status === "succeeded") {
    recordPayment(intent);
    return "paid";
  }
  expireOrderPayment(order.paymentIntentId);
  return "expired";
}

/** How long after its deadline a payment confirmed by hand is still looked for at the provider. */
const CONFIRMED_BY_HAND_CHECKED_MS = 30 * DAY_MS;

/**
 * The webhook can be lost (the server was down, the network failed): at start-up and every
 * hour, each waiting konbini order is checked with the provider. A payment that came in makes
 * it paid; a voucher past its deadline ends it as 期限切れ. An order an admin confirmed paid by
 * hand is checked too until the provider's own report is found (for a month after its
 * deadline), never expired: the report is noted, so the order can be refunded.
 */
export async function reconcileKonbiniPayments(): Promise<{ paid: number; expired: number }> {
  const waiting = db()
    .select()
    .from(orders)
    .where(eq(orders.paymentStatus, "awaiting"))
    .orderBy(asc(orders.paymentDueAt))
    .all();
  const counts = { paid: 0, expired: 0 };
  for (const order of waiting) {
    try {
      const intent = await paymentProvider().retrieveIntent(order.paymentIntentId);
      if (intent?.status === "succeeded") {
        if (recordPayment(intent).ok) counts.paid++;
      } else if (order.paymentDueAt && order.paymentDueAt <= now()) {
        counts[await expireAtProvider(order)]++;
      }
    } catch (error) {
      console.error(`[payments] could not check the konbini payment of order ${order.orderNumber}`, error);
    }
  }
  for (const order of confirmedByHandNotReported()) {
    try {
      const intent = await paymentProvider().retrieveIntent(order.paymentIntentId);
      if (intent?.status === "succeeded") recordPayment(intent);
    } catch (error) {
      console.error(`[payments] could not check the konbini payment of order ${order.orderNumber}`, error);
    }
  }
  return counts;
}

function confirmedByHandNotReported(): Order[] {
  return db()
    .select()
    .from(orders)
    .where(
      and(
        isNotNull(orders.manualPaymentConfirmedAt),
        isNull(orders.providerPaymentReportedAt),
        gt(orders.paymentDueAt, new Date(now().getTime() - CONFIRMED_BY_HAND_CHECKED_MS)),
      ),
    )
    .all();
}

/**
 * テストモード only (PAYMENT_PROVIDER=test): what a store's till and the voucher's deadline do, through
 * the same code as the webhook's events. Refused with Stripe, where only Stripe reports payments.
 */
export async function simulateKonbini(
  statusToken: string,
  event: "paid" | "expired",
): Promise<{ ok: true } | { ok: false; status: 404 | 409; message: string }> {
  if (paymentProvider().mode !== "test")
    return { ok: false, status: 404, message: "テストモードでのみ使えます" };
  const order = orderByStatusToken(statusToken);
  if (!order || order.paymentMethod !== "konbini")
    return { ok: false, status: 404, message: "ご注文が見つかりません" };
  if (order.paymentStatus !== "awaiting")
    return { ok: false, status: 409, message: "このご注文はお支払い待ちではありません" };
  if (event === "expired") {
    await expireAtProvider(order);
    return { ok: true };
  }
  const intent = await testProvider.payAtStore(order.paymentIntentId);
  if (intent?.status !== "succeeded")
    return { ok: false, status: 409, message: "お支払い期限を過ぎているため、お支払いできません" };
  recordPayment(intent);
  return { ok: true };
}
