import crypto from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { db, type Tx } from "../db/client.server";
import { testPaymentIntents, testRefunds } from "../db/schema";
import { refundIdempotencyKey } from "./refund-idempotency.server";
import type { ProviderRefund } from "./types";

/**
 * The test provider's refunds, as Stripe makes them: once per idempotency key, never more than
 * the payment left unrefunded, a card refund succeeded at once, a konbini refund waiting
 * (requires_action) until the customer's bank account is given — here, the back-office's
 * テストモード button, which reports it through the same path as Stripe's webhook.
 */

/** What the provider refuses, as Stripe's invalid_request_error: the shop marks its refund failed. */
export class TestRefundRefused extends Error {}

function toRefund(row: typeof testRefunds.$inferSelect): ProviderRefund {
  return {
    id: row.id,
    status: row.status === "requires_action" ? "processing" : row.status,
    amount: row.amount,
    currency: "jpy",
    paymentIntentId: row.paymentIntentId,
    method: row.method,
    shopRefundId: row.shopRefundId,
    failureReason: null,
  };
}

export async function createTestRefund(input: {
  paymentIntentId: string;
  amount: number;
  shopRefundId: number;
  requestKey: string;
}): Promise<ProviderRefund> {
  const idempotencyKey = refundIdempotencyKey(input.shopRefundId, input.requestKey);
  return db().transaction(
    (tx) => {
      const earlier = tx
        .select()
        .from(testRefunds)
        .where(eq(testRefunds.idempotencyKey, idempotencyKey))
        .get();
      if (earlier) return toRefund(earlier);
      const intent = tx
        .select()
        .from(testPaymentIntents)
        .where(eq(testPaymentIntents.id, input.paymentIntentId))
        .get();
      if (!intent || intent.status !== "succeeded")
        throw new TestRefundRefused(`payment ${input.paymentIntentId} has not succeeded`);
      const refunded = refundedOf(tx, intent.id);
      if (input.amount <= 0 || refunded + input.amount > intent.amount)
        throw new TestRefundRefused(
          `refund ${input.amount} is greater than the unrefunded ${intent.amount - refunded} of ${intent.id}`,
        );
      const method = intent.konbiniExpiresAt ? "konbini" : "card";
      const row = tx
        .insert(testRefunds)
        .values({
          id: `re_test_${crypto.randomBytes(12).toString("hex")}`,
          paymentIntentId: intent.id,
          amount: input.amount,
          status: method === "konbini" ? "requires_action" : "succeeded",
          method,
          idempotencyKey,
          shopRefundId: input.shopRefundId,
        })
        .returning()
        .get();
      return toRefund(row);
    },
    { behavior: "immediate" },
  );
}

/** What the payment's refunds give back, failed ones left out (as Stripe counts them). */
function refundedOf(tx: Pick<Tx, "select">, paymentIntentId: string): number {
  return (
    tx
      .select({ refunded: sql<number>`coalesce(sum(${testRefunds.amount}), 0)` })
      .from(testRefunds)
      .where(and(eq(testRefunds.paymentIntentId, paymentIntentId), ne(testRefunds.status, "failed")))
      .get()?.refunded ?? 0
  );
}

export async function testRefundedAmount(paymentIntentId: string): Promise<number> {
  return db().transaction((tx) => refundedOf(tx, paymentIntentId));
}

/** The customer gave a bank account and the transfer went out: a waiting konbini refund succeeds. */
export async function completeTestKonbiniRefund(id: string): Promise<ProviderRefund | null> {
  const row = db()
    .update(testRefunds)
    .set({ status: "succeeded" })
    .where(and(eq(testRefunds.id, id), eq(testRefunds.status, "requires_action")))
    .returning()
    .get();
  return row ? toRefund(row) : null;
}
