import crypto from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import { db } from "../db/client.server";
import { testPaymentIntents } from "../db/schema";
import { now } from "../core/clock.server";
import { orderMetadata, orderMetadataUpdate, readOrderMetadata } from "./order-metadata.server";
import type { PaymentIntentState, PaymentProvider } from "./types";
import { createTestRefund, testRefundedAmount } from "./test-refunds.server";

/**
 * The built-in test provider (テストモード), used only when chosen (PAYMENT_PROVIDER=test, or no Stripe key outside production).
 * It keeps intents in its own table and accepts Stripe's test card numbers through
 * a plain HTML form, so the whole purchase works without JavaScript or a network.
 */
const SUCCESS_CARDS = new Set(["4242424242424242", "5555555555554444", "3566002020360505"]);
const DECLINES: Record<string, string> = {
  "4000000000000002": "カードが拒否されました。別のカードをお試しください。",
  "4000000000009995": "カードの残高が不足しています。",
  "4000000000000069": "カードの有効期限が切れています。",
};

function toState(row: typeof testPaymentIntents.$inferSelect): PaymentIntentState {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    checkoutId: row.checkoutId,
    clientSecret: `${row.id}_secret`,
    konbini:
      row.status === "requires_action" && row.konbiniExpiresAt
        ? {
            confirmationNumber: row.konbiniConfirmationNumber,
            expiresAt: row.konbiniExpiresAt,
            hostedVoucherUrl: null,
          }
        : null,
    carriedOrder: readOrderMetadata(row.metadata),
  };
}

function row(id: string) {
  return db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)).get();
}

function setStatus(id: string, values: Partial<typeof testPaymentIntents.$inferInsert>) {
  return toState(
    db().update(testPaymentIntents).set(values).where(eq(testPaymentIntents.id, id)).returning().get(),
  );
}

export const testProvider: PaymentProvider & {
  confirmCard(
    id: string,
    cardNumber: string,
  ): Promise<{ ok: true; intent: PaymentIntentState } | { ok: false; message: string }>;
  startKonbini(id: string, expiresAt: Date): Promise<PaymentIntentState | null>;
  payAtStore(id: string): Promise<PaymentIntentState | null>;
} = {
  mode: "test",

  async createIntent({ checkoutId, amount, order }) {
    const row = db()
      .insert(testPaymentIntents)
      .values({
        id: `pi_test_${crypto.randomBytes(12).toString("hex")}`,
        checkoutId,
        amount,
        metadata: order ? orderMetadata(checkoutId, order) : { checkoutId },
      })
      .returning()
      .get();
    return toState(row);
  },

  async retrieveIntent(id) {
    const found = row(id);
    return found ? toState(found) : null;
  },

  async updateAmount(id, amount, carried) {
    const found = row(id);
    // As Stripe merges an update's metadata: "" removes a key.
    const metadata = carried
      ? Object.fromEntries(
          Object.entries({
            ...found?.metadata,
            ...orderMetadataUpdate(carried.checkoutId, carried.order),
          }).filter(([, value]) => value !== ""),
        )
      : found?.metadata;
    const updated = db()
      .update(testPaymentIntents)
      .set({ amount, metadata })
      .where(eq(testPaymentIntents.id, id))
      .returning()
      .get();
    return toState(updated);
  },

  async cancelIntent(id) {
    const found = row(id);
    if (!found) return null;
    // As Stripe: a final intent (paid, or already canceled) stays as it is.
    if (found.status === "succeeded" || found.status === "canceled") return toState(found);
    return setStatus(id, { status: "canceled" });
  },

  async succeededSince(since) {
    return db()
      .select()
      .from(testPaymentIntents)
      .where(and(eq(testPaymentIntents.status, "succeeded"), gte(testPaymentIntents.createdAt, since)))
      .all()
      .map(toState);
  },

  refundedAmount: testRefundedAmount,

  createRefund: createTestRefund,

  async confirmCard(id, cardNumber) {
    const found = row(id);
    if (!found) return { ok: false, message: "決済情報が見つかりません。もう一度お試しください。" };
    if (found.status === "succeeded") return { ok: true, intent: toState(found) };
    if (found.status !== "requires_payment_method")
      return { ok: false, message: "このお支払いは手続き済みです。注文状況のページをご確認ください。" };
    const decline = DECLINES[cardNumber];
    if (decline || !SUCCESS_CARDS.has(cardNumber)) {
      const message =
        decline ??
        "このカード番号はテストモードではご利用いただけません（4242 4242 4242 4242 をお使いください）。";
      db().update(testPaymentIntents).set({ lastError: message }).where(eq(testPaymentIntents.id, id)).run();
      return { ok: false, message };
    }
    return { ok: true, intent: setStatus(id, { status: "succeeded", lastError: null }) };
  },

  /**
   * Konbini chosen: a voucher with an 11-digit confirmation number, payable until `expiresAt`
   * (konbini's deadline, konbiniDeadline in orders/konbini.server.ts, as Stripe computes its own).
   */
  async startKonbini(id, expiresAt) {
    const found = row(id);
    if (!found) return null;
    if (found.status !== "requires_payment_method") return toState(found);
    return setStatus(id, {
      status: "requires_action",
      lastError: null,
      konbiniConfirmationNumber: String(crypto.randomInt(10_000_000_000, 100_000_000_000)),
      konbiniExpiresAt: expiresAt,
    });
  },

  /** What a store's till does: the voucher is paid (refused after its deadline, as at a real store). */
  async payAtStore(id) {
    const found = row(id);
    if (!found) return null;
    if (found.status !== "requires_action" || !found.konbiniExpiresAt || found.konbiniExpiresAt <= now())
      return toState(found);
    return setStatus(id, { status: "succeeded" });
  },
};
