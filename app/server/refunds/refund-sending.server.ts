import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { loadStripe } from "../core/lazy-modules.server";
import { db, type Tx } from "../db/client.server";
import { orderLines, orders, refunds, strayPayments } from "../db/schema";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { refundMail, strayRefundMail } from "../mail/templates/refund.server";
import { formatAmountIn } from "~/lib/rules/format";
import { orderStatusUrl } from "../orders/order-status.server";
import { paymentProvider } from "../payments/index.server";
import { TestRefundRefused } from "../payments/test-refunds.server";
import type { ProviderRefund } from "../payments/types";

/**
 * Asking the provider for a refund the shop has written down, and recording what it answers.
 * The row is written first (refunds under the order's lock, see order-refunds.server.ts), so the
 * amount is promised before any money moves; the provider's idempotency key is the row's id and
 * request key (refundIdempotencyKey: ids restart after a restore, request keys do not), so
 * asking again — a retry after a network fault, start-up's resend, two calls at once — never
 * refunds twice. Whatever path reports the provider's refund (this answer, the webhook, the test
 * provider's action) goes through applyProviderRefund, which mails the customer once.
 */

export type RefundRow = typeof refunds.$inferSelect;

/** Sends a `requested` refund to the provider; answers the row as it stands afterwards. */
export async function sendRefund(refundId: number): Promise<RefundRow> {
  const row = refundRow(refundId);
  if (row.status !== "requested") return row;
  let reported: ProviderRefund;
  try {
    reported = await paymentProvider().createRefund({
      paymentIntentId: row.paymentIntentId,
      amount: row.amount,
      shopRefundId: row.id,
      requestKey: row.requestKey,
      customerEmail: customerEmailOf(row),
    });
  } catch (error) {
    if (await isRefusal(error)) {
      // The provider said no (already refunded there, a payment it cannot refund): nothing moved,
      // and the amount is free to refund again once the admin has looked.
      return db()
        .update(refunds)
        .set({ status: "failed", failureReason: error instanceof Error ? error.message : String(error) })
        .where(eq(refunds.id, row.id))
        .returning()
        .get();
    }
    // Not reached (a network fault after the SDK's own retries): still requested, sent again by
    // the admin's 再送信 or at start-up, under the same idempotency key.
    console.error(`[refunds] 返金 ${row.id} を決済サービスに送れませんでした（再送します）:`, error);
    return row;
  }
  return recordProviderRefund(reported) ?? refundRow(refundId);
}

/** Every refund still `requested` (the provider was not reached): sent again at start-up. */
export async function resendRequestedRefunds(): Promise<number> {
  const waiting = db().select({ id: refunds.id }).from(refunds).where(eq(refunds.status, "requested")).all();
  let sent = 0;
  for (const { id } of waiting) if ((await sendRefund(id)).status !== "requested") sent++;
  return sent;
}

/**
 * Records what the provider reports about one of the shop's refunds, from any path; a refund
 * made at the provider's dashboard (no shop id) is written down too, so totals stay true.
 * Answers the row, or null when the refund is for a payment the shop does not know.
 */
export function recordProviderRefund(reported: ProviderRefund): RefundRow | null {
  const result = db().transaction(
    (tx) => {
      const row = findRefund(tx, reported) ?? refundMadeElsewhere(tx, reported);
      return row ? applyProviderRefund(tx, row, reported) : null;
    },
    { behavior: "immediate" },
  );
  if (result?.mailId) void sendQueuedMailNow(result.mailId, `refund mail for refund ${result.row.id}`);
  return result?.row ?? null;
}

function applyProviderRefund(tx: Tx, row: RefundRow, reported: ProviderRefund) {
  // Events can arrive out of order: a refund once succeeded is not taken back to processing.
  const status =
    row.status === "succeeded" && reported.status === "processing" ? row.status : reported.status;
  const updated = tx
    .update(refunds)
    .set({
      providerRefundId: reported.id,
      status,
      method: reported.method,
      failureReason:
        status === "failed" ? (reported.failureReason ?? "決済サービスが返金できませんでした") : null,
      succeededAt: status === "succeeded" ? (row.succeededAt ?? now()) : row.succeededAt,
    })
    .where(eq(refunds.id, row.id))
    .returning()
    .get();
  // The customer hears once, when the provider first accepts the refund.
  const accepted = row.status === "requested" && status !== "failed";
  return { row: updated, mailId: accepted ? queueRefundMail(tx, updated) : null };
}

function findRefund(tx: Tx, reported: ProviderRefund): RefundRow | undefined {
  return (
    tx.select().from(refunds).where(eq(refunds.providerRefundId, reported.id)).get() ??
    (reported.shopRefundId !== null
      ? tx.select().from(refunds).where(eq(refunds.id, reported.shopRefundId)).get()
      : undefined)
  );
}

/** A refund the shop did not ask for (made at the provider's dashboard): written down as requested. */
function refundMadeElsewhere(tx: Tx, reported: ProviderRefund): RefundRow | undefined {
  if (reported.shopRefundId !== null || !reported.paymentIntentId || reported.status === "failed")
    return undefined;
  const order = tx.select().from(orders).where(eq(orders.paymentIntentId, reported.paymentIntentId)).get();
  const stray = order
    ? undefined
    : tx
        .select()
        .from(strayPayments)
        .where(eq(strayPayments.paymentIntentId, reported.paymentIntentId))
        .get();
  if (!order && !stray) {
    console.error(
      `[refunds] 決済 ${reported.paymentIntentId} の返金 ${reported.id} は、ショップの注文にも記録済みの決済にもありません`,
    );
    return undefined;
  }
  return tx
    .insert(refunds)
    .values({
      orderId: order?.id ?? null,
      strayPaymentId: stray?.id ?? null,
      paymentIntentId: reported.paymentIntentId,
      amount: reported.amount,
      currency: reported.currency,
      method: reported.method,
      reason: "決済サービスの管理画面で返金されました",
      requestKey: `provider:${reported.id}`,
    })
    .returning()
    .get();
}

function queueRefundMail(tx: Tx, row: RefundRow): number | null {
  if (row.strayPaymentId !== null) return queueStrayRefundMail(tx, row);
  if (row.orderId === null) return null;
  const order = tx.select().from(orders).where(eq(orders.id, row.orderId)).get();
  if (!order) return null;
  const lines = row.lineIds.length
    ? tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).all()
    : [];
  return queueMail(
    {
      to: order.customerEmail,
      dedupeKey: `refund:${row.id}`,
      mail: refundMail({
        customerName: order.customerName,
        orderNumber: order.orderNumber,
        contestName: order.contestName,
        amount: row.amount,
        method: row.method ?? order.paymentMethod,
        reason: row.reason,
        lineLabels: lines
          .filter((line) => row.lineIds.includes(line.id))
          .map((line) => `${order.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}・${line.style}`),
        statusUrl: orderStatusUrl(order.statusToken),
      }),
    },
    tx,
  );
}

/** A stray payment's payer hears of its refund at the checkout's verified address, when there is one. */
function queueStrayRefundMail(tx: Tx, row: RefundRow): number | null {
  const stray = tx
    .select()
    .from(strayPayments)
    .where(eq(strayPayments.id, row.strayPaymentId ?? 0))
    .get();
  if (!stray?.customerEmail) return null;
  return queueMail(
    {
      to: stray.customerEmail,
      dedupeKey: `refund:${row.id}`,
      mail: strayRefundMail({
        amountLabel: formatAmountIn(row.amount, row.currency),
        secondPayment: stray.reason === "second_payment",
        method: row.method ?? "card",
      }),
    },
    tx,
  );
}

function refundRow(id: number): RefundRow {
  const row = db().select().from(refunds).where(eq(refunds.id, id)).get();
  if (!row) throw new Error(`refund ${id} does not exist`);
  return row;
}

/** Where a konbini refund's bank-account request goes: the order's verified address, never one a client names. */
function customerEmailOf(row: RefundRow): string | null {
  if (row.orderId !== null)
    return (
      db().select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, row.orderId)).get()
        ?.email ?? null
    );
  if (row.strayPaymentId !== null)
    return (
      db()
        .select({ email: strayPayments.customerEmail })
        .from(strayPayments)
        .where(eq(strayPayments.id, row.strayPaymentId))
        .get()?.email ?? null
    );
  return null;
}

/** The provider refused the request itself (as opposed to not being reached). */
async function isRefusal(error: unknown): Promise<boolean> {
  if (error instanceof TestRefundRefused) return true;
  const { errors } = await loadStripe();
  return error instanceof errors.StripeInvalidRequestError || error instanceof errors.StripeCardError;
}
