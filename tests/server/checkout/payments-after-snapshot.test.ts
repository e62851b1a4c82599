import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { orderMetadata, type CarriedOrder } from "~/server/payments/order-metadata.server";
import {
  describePaymentsAfterSnapshot,
  recoverPaymentsAfter,
} from "~/server/checkout/payments-after-snapshot.server";
import { db, openDatabase, useDatabase, type Db } from "~/server/db/client.server";
import {
  athletes,
  checkouts,
  orderLines,
  orders,
  strayPayments,
  testPaymentIntents,
} from "~/server/db/schema";
import { recordPayment } from "~/server/orders/record-payment.server";
import { paymentProvider, testProvider } from "~/server/payments/index.server";
import { askForPaymentIntent } from "../../helpers/stripe-checkout";
import { checkoutUntilVerified } from "../../helpers/checkout-flow";
import { seedContest } from "../../helpers/shop";
import { withStripeShop } from "../../helpers/stripe-events";

const fake = withStripeShop();

const live = { db: undefined as Db | undefined };
afterAll(() => {
  if (live.db) useDatabase(live.db);
});

/**
 * A checkout of one athlete's two lines (縦 3,000円, 横 4,500円) up to its PaymentIntent at the
 * local Stripe; then the athlete is renamed and the payment page asked again: the same total with
 * other lines, which the intent must carry too.
 */
async function startedPayment(athleteName: string, shop = seedContest()) {
  const { cookie, email } = await checkoutUntilVerified(
    shop,
    [
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.horizontal.id },
    ],
    fake.smtp.received,
  );
  const askForPayment = async () => expect((await askForPaymentIntent(cookie)).status).toBe(200);
  await askForPayment();
  const checkout = db().select().from(checkouts).where(eq(checkouts.customerEmail, email)).get()!;
  const intentId = checkout.paymentIntentId!;
  db().update(athletes).set({ name: athleteName }).where(eq(athletes.id, shop.onSale.id)).run();
  await askForPayment();
  expect(fake.stripe.intents.get(intentId)!.metadata.order_lines_0).toContain(athleteName);
  expect(db().select().from(checkouts).where(eq(checkouts.id, checkout.id)).get()?.paymentIntentId).toBe(
    intentId,
  );
  return { intentId, email, checkoutId: checkout.id, askForPayment, athleteId: shop.onSale.id };
}

/** The card goes through at Stripe and the shop records it, as the browser's return does. */
async function pay(intentId: string) {
  fake.stripe.succeed(intentId);
  const made = recordPayment((await paymentProvider().retrieveIntent(intentId))!);
  if (!made.ok) throw new Error(made.detail);
  return made.order;
}

function orderOf(intentId: string) {
  const order = db().select().from(orders).where(eq(orders.paymentIntentId, intentId)).get();
  if (!order) return null;
  const lines = db().select().from(orderLines).where(eq(orderLines.orderId, order.id)).all();
  return {
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    contestId: order.contestId,
    contestName: order.contestName,
    totalAmount: order.totalAmount,
    paymentStatus: order.paymentStatus,
    lines: lines.map((l) => [
      l.category,
      l.athleteId,
      l.athleteNumber,
      l.athleteName,
      l.style,
      l.orientation,
      l.price,
    ]),
  };
}

describe("orders paid after the snapshot, made again from the payments", () => {
  it("a payment intent carries its order, and an update carries the new lines (keys no longer used removed)", async () => {
    const { intentId, checkoutId } = await startedPayment("山田 𠮷子😀");
    const intent = fake.stripe.intents.get(intentId)!;
    expect(intent.metadata.checkoutId).toBe(checkoutId);
    const carried = (await paymentProvider().retrieveIntent(intentId))!.carriedOrder.order!;
    const checkout = db().select().from(checkouts).where(eq(checkouts.id, checkoutId)).get()!;
    expect(carried).toEqual({
      contestId: checkout.contestId,
      customerEmail: checkout.customerEmail,
      customerName: checkout.customerName,
      pricedLines: checkout.pricedLines,
      couponCode: null,
    });
    // A long order, then a short one at the same intent: Stripe must not keep the long one's keys.
    const long: CarriedOrder = {
      ...carried,
      pricedLines: Array.from({ length: 40 }, (_, i) => ({
        ...carried.pricedLines[0]!,
        athleteName: `${i}${"長".repeat(90)}`,
      })),
    };
    await paymentProvider().updateAmount(intentId, 120_000, { checkoutId, order: long });
    expect(Object.keys(fake.stripe.intents.get(intentId)!.metadata).length).toBeGreaterThan(10);
    const short = { ...carried, pricedLines: carried.pricedLines.slice(0, 1) };
    const updated = await paymentProvider().updateAmount(intentId, 3000, { checkoutId, order: short });
    expect(fake.stripe.intents.get(intentId)!.metadata).toEqual(orderMetadata(checkoutId, short));
    expect(updated.carriedOrder.order).toEqual(short);
  });

  it("the test provider keeps the carried order in test_payment_intents.metadata, an update with Stripe's rule", async () => {
    const line = {
      category: "A部門",
      athleteId: 1,
      athleteNumber: 1,
      athleteName: "山田 花子🎬",
      formatId: 1,
      style: "縦",
      orientation: "vertical" as const,
      price: 3000,
      listPrice: 3000,
      discounts: [],
    };
    const long: CarriedOrder = {
      contestId: 1,
      customerEmail: "hanako@example.jp",
      customerName: "山田 花子",
      couponCode: null,
      pricedLines: Array.from({ length: 30 }, (_, i) => ({ ...line, athleteName: `${i}${"長".repeat(90)}` })),
    };
    const made = await testProvider.createIntent({
      checkoutId: "chk_test_provider",
      amount: 90_000,
      email: long.customerEmail,
      order: long,
    });
    expect(made.carriedOrder.order).toEqual(long);
    const short = { ...long, pricedLines: [line] };
    const updated = await testProvider.updateAmount(made.id, 3000, {
      checkoutId: "chk_test_provider",
      order: short,
    });
    expect(updated.carriedOrder.order).toEqual(short);
    expect(
      db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, made.id)).get()?.metadata,
    ).toEqual(orderMetadata("chk_test_provider", short));
  });

  it("after a rollback to a snapshot, recovery makes exactly the missing orders with their lines, name and address; a second run makes none", async () => {
    const shop = seedContest();
    const before = await startedPayment("佐藤 一郎");
    await pay(before.intentId);
    // Started before the snapshot, paid after it: the snapshot has the checkout, not the order.
    const startedBefore = await startedPayment("髙橋 𠮷乃👨‍👩‍👧");

    // A konbini voucher before the snapshot (the order waits 入金待ち), paid at the store after it.
    const konbini = await startedPayment("伊藤 コンビニ", shop);
    fake.stripe.showKonbiniVoucher(konbini.intentId, new Date(Date.now() + 3 * 86_400_000));
    expect(recordPayment((await paymentProvider().retrieveIntent(konbini.intentId))!)).toMatchObject({
      ok: true,
      order: { paymentStatus: "awaiting" },
    });

    const snapshot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "snapshot-")), "shop.db");
    await db().$client.backup(snapshot);
    const snapshotAt = new Date();

    // The customer changed the lines after the snapshot (same total): the payment carries the new ones.
    db()
      .update(athletes)
      .set({ name: "髙橋 𠮷乃（改名）" })
      .where(eq(athletes.id, startedBefore.athleteId))
      .run();
    await startedBefore.askForPayment();
    await pay(startedBefore.intentId);
    fake.stripe.payKonbini(konbini.intentId);
    recordPayment((await paymentProvider().retrieveIntent(konbini.intentId))!);
    expect(orderOf(konbini.intentId)?.paymentStatus).toBe("paid");
    // Started and paid after the snapshot: neither its checkout nor its order is in it.
    const after = await startedPayment("鈴木 ハナ🎬", shop);
    await pay(after.intentId);
    // An intent whose amount was changed at Stripe before it was paid: not this order's payment.
    const changed = await startedPayment("渡辺 金額違い", shop);
    fake.stripe.intents.get(changed.intentId)!.amount = 100;
    fake.stripe.succeed(changed.intentId);
    // A contest made after the snapshot: its payment cannot become an order in the restored shop.
    const newContest = await startedPayment("新しい 大会");
    await pay(newContest.intentId);
    // A payment that carries no order (made as before this change) and has no checkout.
    const bare = await paymentProvider().createIntent({
      checkoutId: "chk_not_in_any_database",
      amount: 5000,
      email: "x@example.jp",
    });
    fake.stripe.succeed(bare.id);
    const expected = { startedBefore: orderOf(startedBefore.intentId), after: orderOf(after.intentId) };
    expect(expected.startedBefore?.lines).toHaveLength(2);
    expect(expected.startedBefore?.lines[0]).toContain("髙橋 𠮷乃（改名）");
    expect(expected.after?.customerEmail).toBe(after.email);

    // The volume is lost: the shop runs on the snapshot.
    live.db = db();
    useDatabase(openDatabase(snapshot));
    expect(orderOf(startedBefore.intentId)).toBeNull();
    expect(db().select().from(checkouts).where(eq(checkouts.id, after.checkoutId)).get()).toBeUndefined();

    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const first = await recoverPaymentsAfter(snapshotAt);
    errors.mockRestore();
    expect(first.recreated.map((row) => [row.paymentIntentId, row.checkoutRecreated]).sort()).toEqual(
      [
        [startedBefore.intentId, false],
        [after.intentId, true],
      ].sort(),
    );
    expect(orderOf(startedBefore.intentId)).toEqual(expected.startedBefore);
    expect(first.markedPaid.map((row) => row.paymentIntentId)).toEqual([konbini.intentId]);
    expect(orderOf(konbini.intentId)?.paymentStatus).toBe("paid");
    expect(orderOf(after.intentId)).toEqual(expected.after);
    for (const row of first.recreated)
      expect(
        db().select().from(orders).where(eq(orders.orderNumber, row.orderNumber)).get()?.paymentIntentId,
      ).toBe(row.paymentIntentId);
    // The payment without an order carried is listed, in the ledger for the admin, and made into nothing.
    expect(first.unrecovered).toContainEqual(
      expect.objectContaining({ paymentIntentId: bare.id, reason: "no_order_metadata", inStrayLedger: true }),
    );
    expect(orderOf(bare.id)).toBeNull();
    expect(first.unrecovered).toContainEqual(
      expect.objectContaining({
        paymentIntentId: newContest.intentId,
        reason: "contest_gone",
        inStrayLedger: true,
      }),
    );
    expect(orderOf(newContest.intentId)).toBeNull();
    expect(first.unrecovered).toContainEqual(
      expect.objectContaining({
        paymentIntentId: changed.intentId,
        reason: "refused_by_record_payment",
        inStrayLedger: true,
      }),
    );
    expect(first.unrecovered.find((row) => row.paymentIntentId === changed.intentId)?.message).toMatch(
      /決済額 100 円が注文の合計 7500 円と一致しません/,
    );
    expect(orderOf(changed.intentId)).toBeNull();
    expect(
      db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, bare.id)).get(),
    ).toBeDefined();
    expect(first.alreadyThere).toBeGreaterThanOrEqual(1);
    expect(describePaymentsAfterSnapshot(first).join("\n")).toContain(`${after.intentId} → 注文`);

    const ordersBefore = db().select().from(orders).all().length;
    const second = await recoverPaymentsAfter(snapshotAt);
    expect(second.recreated).toEqual([]);
    expect(second.markedPaid).toEqual([]);
    expect(second.found).toBe(first.found);
    expect(second.alreadyThere).toBe(first.alreadyThere + 3);
    expect(second.unrecovered.find((row) => row.paymentIntentId === bare.id)?.reason).toBe("already_stray");
    expect(db().select().from(orders).all()).toHaveLength(ordersBefore);
  });
});
