import { eq } from "drizzle-orm";
import { loadStripe } from "../core/lazy-modules.server";
import { db } from "../db/client.server";
import { orders, refunds, strayPayments } from "../db/schema";
import { paymentProvider } from "../payments/index.server";
import { TestRefundRefused } from "../payments/test-refunds.server";
import type { ProviderRefund } from "../payments/types";
import { recordProviderRefund } from "./provider-refunds.server";

/**
 * Asking the provider for a refund the shop has written down, and recording what it answers.
 * The row is written first (refunds under the order's lock, see order-refunds.server.ts), so the
 * amount is promised before any money moves; the provider's idempotency key is the row's id and
 * request key (refundIdempotencyKey: ids restart after a restore, request keys do not), so
 * asking again — a retry after a network fault, start-up's resend, two calls at once — never
 * refunds twice. Whatever path reports the provider's refund (this answer, the webhook, the test
 * provider's action) goes through recordProviderRefund (provider-refunds.server.ts), which
 * checks its money and mails the customer once.
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
