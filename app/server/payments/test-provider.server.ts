import crypto from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import { db } from "../db/client.server";
import { testPaymentIntents } from "../db/schema";
import type { PaymentIntentState, PaymentProvider } from "./types";

/**
 * The built-in test provider (テストモード), used when no Stripe key is configured.
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
  };
}

export const testProvider: PaymentProvider & {
  confirmCard(
    id: string,
    cardNumber: string,
  ): Promise<{ ok: true; intent: PaymentIntentState } | { ok: false; message: string }>;
} = {
  mode: "test",

  async createIntent({ checkoutId, amount }) {
    const row = db()
      .insert(testPaymentIntents)
      .values({ id: `pi_test_${crypto.randomBytes(12).toString("hex")}`, checkoutId, amount })
      .returning()
      .get();
    return toState(row);
  },

  async retrieveIntent(id) {
    const row = db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)).get();
    return row ? toState(row) : null;
  },

  async updateAmount(id, amount) {
    const row = db()
      .update(testPaymentIntents)
      .set({ amount })
      .where(eq(testPaymentIntents.id, id))
      .returning()
      .get();
    return toState(row);
  },

  async succeededSince(since) {
    return db()
      .select()
      .from(testPaymentIntents)
      .where(and(eq(testPaymentIntents.status, "succeeded"), gte(testPaymentIntents.createdAt, since)))
      .all()
      .map(toState);
  },

  async confirmCard(id, cardNumber) {
    const row = db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id)).get();
    if (!row) return { ok: false, message: "決済情報が見つかりません。もう一度お試しください。" };
    if (row.status === "succeeded") return { ok: true, intent: toState(row) };
    const decline = DECLINES[cardNumber];
    if (decline || !SUCCESS_CARDS.has(cardNumber)) {
      const message =
        decline ??
        "このカード番号はテストモードではご利用いただけません（4242 4242 4242 4242 をお使いください）。";
      db().update(testPaymentIntents).set({ lastError: message }).where(eq(testPaymentIntents.id, id)).run();
      return { ok: false, message };
    }
    const updated = db()
      .update(testPaymentIntents)
      .set({ status: "succeeded", lastError: null })
      .where(eq(testPaymentIntents.id, id))
      .returning()
      .get();
    return { ok: true, intent: toState(updated) };
  },
};
