import { and, eq, inArray } from "drizzle-orm";
import type { CarriedOrder } from "../payments/order-metadata.server";
import { now } from "../core/clock.server";
import type { Tx } from "../db/client.server";
import { athletes, checkouts, contests } from "../db/schema";
import type { PaymentIntentState } from "../payments/types";

/*
 * A payment's checkout as the payment was made for it, from what the payment carries
 * (server/payments/order-metadata.server.ts). Used by recordPayment when a payment finds no usable checkout
 * (the database lost it: a restore, a volume gone), so the webhook, the browser's return,
 * start-up and the restore all make the order; and by the recovery after a restore
 * (payments-after-snapshot.server.ts), which gives a checkout the snapshot has the carried
 * lines. Imports nothing of either, so neither imports the other through it.
 */

/** Why a payment's checkout cannot be had from what it carries, for the admin. */
export type CheckoutRefusalReason =
  | "no_order_metadata"
  | "incomplete_order_metadata"
  | "invalid_order_metadata"
  | "contest_gone"
  | "athlete_gone";

export type CheckoutFromPayment =
  | { ok: true; recreated: boolean }
  | { ok: false; reason: CheckoutRefusalReason; message: string; checkoutExists: boolean };

/**
 * The checkout as the payment was made for it. The database's own checkout is used as it is
 * when the payment carries no order; when it does, the checkout takes the carried lines and
 * customer, which preparePayment wrote to both and the provider got first (a checkout already
 * paid is left alone). A checkout the database lacks is made from the carried order: verified,
 * as preparePayment leaves it, without an auto-login account (its password never left the shop).
 */
export function checkoutFromPayment(tx: Tx, intent: PaymentIntentState): CheckoutFromPayment {
  const checkout = intent.checkoutId
    ? tx.select().from(checkouts).where(eq(checkouts.id, intent.checkoutId)).get()
    : undefined;
  const { order, problem } = intent.carriedOrder;
  if (!order) {
    if (checkout) return { ok: true, recreated: false };
    const reason =
      problem.reason === "incomplete"
        ? "incomplete_order_metadata"
        : problem.reason === "invalid"
          ? "invalid_order_metadata"
          : "no_order_metadata";
    return { ok: false, reason, message: problem.message, checkoutExists: false };
  }
  const refusal = orderRefusal(tx, order);
  if (refusal) return { ok: false, ...refusal, checkoutExists: !!checkout };
  const values = {
    contestId: order.contestId,
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    pricedLines: order.pricedLines,
    couponCode: order.couponCode,
    amount: order.pricedLines.reduce((sum, line) => sum + line.price, 0),
    paymentIntentId: intent.id,
    updatedAt: now(),
  };
  if (checkout) {
    if (checkout.status !== "paid")
      tx.update(checkouts).set(values).where(eq(checkouts.id, checkout.id)).run();
    return { ok: true, recreated: false };
  }
  if (!intent.checkoutId)
    return {
      ok: false,
      reason: "invalid_order_metadata",
      message: "決済に注文手続きの番号（checkoutId）がありません",
      checkoutExists: false,
    };
  tx.insert(checkouts)
    .values({
      ...values,
      id: intent.checkoutId,
      items: order.pricedLines.map(({ category, athleteId, formatId }) => ({
        category,
        athleteId,
        formatId,
      })),
      autoLogin: false,
      emailVerifiedAt: now(),
      status: "verified",
    })
    .onConflictDoNothing()
    .run();
  return { ok: true, recreated: true };
}

/**
 * A carried order the database cannot hold: its contest or an athlete is not in it. Said of
 * "the database", not "the restored one": start-up and the webhook ask this without a restore.
 */
function orderRefusal(
  tx: Tx,
  order: CarriedOrder,
): { reason: CheckoutRefusalReason; message: string } | null {
  const contest = tx.select({ id: contests.id }).from(contests).where(eq(contests.id, order.contestId)).get();
  if (!contest)
    return {
      reason: "contest_gone",
      message: `大会（ID ${order.contestId}）がデータベースにありません`,
    };
  const ids = [...new Set(order.pricedLines.map((line) => line.athleteId))];
  const found = new Set(
    tx
      .select({ id: athletes.id })
      .from(athletes)
      .where(and(eq(athletes.contestId, order.contestId), inArray(athletes.id, ids)))
      .all()
      .map((row) => row.id),
  );
  const missing = order.pricedLines.find((line) => !found.has(line.athleteId));
  if (missing)
    return {
      reason: "athlete_gone",
      message: `選手「${missing.athleteNumber} ${missing.athleteName}」（ID ${missing.athleteId}）がデータベースの大会にありません`,
    };
  return null;
}
