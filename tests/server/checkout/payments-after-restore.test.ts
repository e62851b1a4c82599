import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { recoverPaymentsAfter } from "~/server/checkout/payments-after-snapshot.server";
// Named for what it does here: useDatabase is the shop's, not a React hook.
import { db, openDatabase, useDatabase as runOnDatabase } from "~/server/db/client.server";
import { athletes, orders, refunds, strayPayments, users } from "~/server/db/schema";
import { recordPayment } from "~/server/orders/record-payment.server";
import { paymentProvider } from "~/server/payments/index.server";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { refundAdmin } from "../../helpers/refund-orders";
import { seedContest } from "../../helpers/shop";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

/*
 * What happens to payments around a restore: refunds made after the snapshot, refund
 * ids the restored database hands out again, a konbini voucher the restored database never saw,
 * and a payment whose order cannot be made while the snapshot has its checkout. Each test takes
 * a snapshot of the live database, goes on, then runs on the snapshot (the volume lost).
 */

const fake = withStripeShop();

const mailsTo = (email: string) => fake.smtp.received.filter((mail) => mail.to.includes(email));

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A copy of the live database now, and a way to run on it (answers the way back). */
async function snapshot() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "snapshot-")), "shop.db");
  await db().$client.backup(file);
  const at = new Date();
  return {
    at,
    rollBack() {
      const live = db();
      runOnDatabase(openDatabase(file));
      return () => runOnDatabase(live);
    },
  };
}

/** A verified checkout of 7,500円 and its intent at the local Stripe, not yet paid. */
async function startedPayment(shop = seedContest()) {
  const { intent, email } = await intentOfVerifiedCheckout(fake, { shop });
  return { intentId: intent!.id, email };
}

/** Paid at Stripe and recorded, as the browser's return does. */
async function paidOrder() {
  const { intentId } = await startedPayment();
  fake.stripe.succeed(intentId);
  const made = recordPayment((await paymentProvider().retrieveIntent(intentId))!);
  if (!made.ok) throw new Error(made.detail);
  return made.order;
}

function orderOf(intentId: string) {
  return db().select().from(orders).where(eq(orders.paymentIntentId, intentId)).get();
}

function ledgerOf(intentId: string) {
  return db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, intentId)).all();
}

/** Recovery's run, its error log silenced (a payment it cannot make is logged). */
async function recover(since: Date) {
  const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return await recoverPaymentsAfter(since);
  } finally {
    errors.mockRestore();
  }
}

describe("payments around a restore", () => {
  it("a payment refunded after the snapshot is not made into an order: refunded in full only listed, in part written in the ledger with what is left", async () => {
    const taken = await snapshot();
    const full = await paidOrder();
    const part = await paidOrder();
    // Refunded after the snapshot: Stripe leaves both intents "succeeded".
    await paymentProvider().createRefund({
      paymentIntentId: full.paymentIntentId,
      amount: 7500,
      shopRefundId: 1,
      requestKey: `full-${full.paymentIntentId}`,
      customerEmail: null,
    });
    await paymentProvider().createRefund({
      paymentIntentId: part.paymentIntentId,
      amount: 3000,
      shopRefundId: 2,
      requestKey: `part-${part.paymentIntentId}`,
      customerEmail: null,
    });
    expect(fake.stripe.intents.get(full.paymentIntentId)?.status).toBe("succeeded");
    expect(await paymentProvider().refundedAmount(full.paymentIntentId)).toBe(7500);

    const back = taken.rollBack();
    try {
      const report = await recover(taken.at);
      expect(orderOf(full.paymentIntentId)).toBeUndefined();
      expect(orderOf(part.paymentIntentId)).toBeUndefined();
      expect(report.recreated.map((row) => row.paymentIntentId)).not.toContain(full.paymentIntentId);
      expect(report.unrecovered).toContainEqual(
        expect.objectContaining({
          paymentIntentId: full.paymentIntentId,
          reason: "refunded",
          inStrayLedger: false,
        }),
      );
      expect(
        report.unrecovered.find((row) => row.paymentIntentId === full.paymentIntentId)?.message,
      ).toContain("返金済み 7500 円");
      // No money left to give back: nothing in the ledger.
      expect(ledgerOf(full.paymentIntentId)).toEqual([]);
      expect(report.unrecovered).toContainEqual(
        expect.objectContaining({
          paymentIntentId: part.paymentIntentId,
          reason: "partly_refunded",
          inStrayLedger: true,
        }),
      );
      expect(ledgerOf(part.paymentIntentId)).toMatchObject([{ reason: "partly_refunded", amount: 4500 }]);
      expect(ledgerOf(part.paymentIntentId)[0]?.detail).toContain("返金済み 3000 円");
    } finally {
      back();
    }
  });

  it("refund ids handed out again after a restore are new refunds at Stripe, not the old ones replayed", async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    const taken = await snapshot();
    const before = await refundOrder({
      orderId: first.id,
      lineIds: [],
      amount: 3000,
      reason: "撮影できなかったため",
      requestKey: `before-restore-${first.id}`,
      adminUserId: refundAdmin().id,
    });
    expect(before).toMatchObject({ ok: true, refund: { status: "succeeded" } });

    const back = taken.rollBack();
    try {
      // The restored database gives the next refund the id the lost one had.
      const after = await refundOrder({
        orderId: second.id,
        lineIds: [],
        amount: 4500,
        reason: "大会が中止になったため",
        requestKey: `after-restore-${second.id}`,
        adminUserId: refundAdmin().id,
      });
      if (!before.ok || !after.ok) throw new Error("refund refused");
      expect(after.refund.id).toBe(before.refund.id);
      const atStripe = [...fake.stripe.refunds.values()].filter(
        (refund) => refund.payment_intent === second.paymentIntentId,
      );
      expect(atStripe).toMatchObject([{ amount: 4500, status: "succeeded" }]);
      expect(after.refund).toMatchObject({ providerRefundId: atStripe[0]!.id, amount: 4500 });
      expect(db().select().from(refunds).where(eq(refunds.id, after.refund.id)).get()?.paymentIntentId).toBe(
        second.paymentIntentId,
      );
    } finally {
      back();
    }
  });

  it("a konbini voucher made after the snapshot and paid after the restore becomes its order through the webhook, not a stray payment", async () => {
    const shop = seedContest();
    const taken = await snapshot();
    // Its checkout started after the snapshot (the contest is in it).
    const { intentId, email } = await startedPayment(shop);
    const voucher = fake.stripe.showKonbiniVoucher(intentId, new Date(Date.now() + 3 * 86_400_000));
    await postWebhook(signedEvent(voucher, { type: "payment_intent.requires_action" }));
    expect(orderOf(intentId)?.paymentStatus).toBe("awaiting");

    const back = taken.rollBack();
    try {
      expect(orderOf(intentId)).toBeUndefined();
      // The customer pays at the store; Stripe reports it to the restored shop.
      const response = await postWebhook(signedEvent(fake.stripe.payKonbini(intentId)));
      expect(response.status).toBe(200);
      expect(response.data).toEqual({ received: true });
      expect(orderOf(intentId)).toMatchObject({
        paymentStatus: "paid",
        customerEmail: email,
        totalAmount: 7500,
      });
      expect(ledgerOf(intentId)).toEqual([]);
    } finally {
      back();
    }
  });

  it("a payment whose order cannot be made while the snapshot has its checkout is written in the ledger once, and the admins mailed once", async () => {
    const admin = db()
      .insert(users)
      .values({ email: `restore-admin-${Date.now()}@example.jp`, passwordHash: "x", isAdmin: true })
      .returning()
      .get();
    const { intentId } = await startedPayment();
    const taken = await snapshot();
    // After the snapshot an athlete is added and the customer's order changed to them (same total).
    const carried = (await paymentProvider().retrieveIntent(intentId))!.carriedOrder.order!;
    const line = carried.pricedLines[0]!;
    const added = db()
      .insert(athletes)
      .values({ contestId: carried.contestId, athleteNumber: 900, name: "後から 追加" })
      .returning()
      .get();
    const order = {
      ...carried,
      pricedLines: carried.pricedLines.map((priced) =>
        priced === line
          ? { ...priced, athleteId: added.id, athleteNumber: 900, athleteName: added.name }
          : priced,
      ),
    };
    await paymentProvider().updateAmount(intentId, 7500, { checkoutId: intentCheckout(intentId), order });
    fake.stripe.succeed(intentId);

    const back = taken.rollBack();
    try {
      const report = await recover(taken.at);
      expect(report.unrecovered).toContainEqual(
        expect.objectContaining({ paymentIntentId: intentId, reason: "athlete_gone", inStrayLedger: true }),
      );
      expect(orderOf(intentId)).toBeUndefined();
      expect(ledgerOf(intentId)).toMatchObject([{ reason: "order_not_restorable", amount: 7500 }]);
      // Start-up runs the same recovery again: still one row, and the admins are not mailed again.
      const again = await recover(taken.at);
      expect(again.unrecovered).toContainEqual(
        expect.objectContaining({ paymentIntentId: intentId, reason: "already_stray" }),
      );
      expect(ledgerOf(intentId)).toHaveLength(1);
      await until(() => mailsTo(admin.email).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(mailsTo(admin.email)).toHaveLength(1);
      expect(mailsTo(admin.email)[0]!.text).toContain(intentId);
    } finally {
      back();
    }
  });
});

/** The checkout id an intent carries. */
function intentCheckout(intentId: string): string {
  return fake.stripe.intents.get(intentId)!.metadata.checkoutId!;
}
