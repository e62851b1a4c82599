import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders, refunds, strayPayments, users } from "~/server/db/schema";
import {
  strayPaymentLedger,
  unrefundedStrayPaymentCount,
} from "~/server/refunds/stray-payment-ledger.server";
import { orderPage } from "~/server/orders/admin/order-page.server";
import { salesReport } from "~/server/sales/sales.server";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { refundStrayPayment } from "~/server/refunds/stray-payments.server";
import { refundAdmin } from "../../helpers/refund-orders";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

/**
 * Money the provider reports as refunded is checked against its order before it
 * is written down. A signed refund report that does not fit (more than is left, another currency,
 * not a whole positive amount, not what the shop asked for) goes to the ledger of stray payments
 * and leaves the order, its refunds, its receipt and the sales as they were.
 */

const fake = withStripeShop();

// Each report filed is also logged as an error for the operator; the tests read the ledger.
beforeAll(() => void vi.spyOn(console, "error").mockImplementation(() => undefined));
afterAll(() => vi.restoreAllMocks());

let n = 0;
const unique = () => `${process.pid}_${++n}_${Math.random().toString(36).slice(2, 8)}`;

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A 3,000円 card order (one line), paid and reported by Stripe's signed webhook. */
async function paidOrderOf3000() {
  const { intent } = await intentOfVerifiedCheckout(fake, { both: false });
  expect((await postWebhook(signedEvent(fake.stripe.succeed(intent!.id)))).status).toBe(200);
  const order = db().select().from(orders).where(eq(orders.paymentIntentId, intent!.id)).get()!;
  expect(order.totalAmount).toBe(3000);
  return order;
}

/** A refund as Stripe's refund objects carry it (made at its dashboard unless `shopRefundId`). */
function stripeRefund(
  order: { paymentIntentId: string },
  fields: { amount: number; currency?: string; status?: string; id?: string; shopRefundId?: number },
) {
  return {
    id: fields.id ?? `re_${unique()}`,
    object: "refund",
    amount: fields.amount,
    currency: fields.currency ?? "jpy",
    payment_intent: order.paymentIntentId,
    status: fields.status ?? "succeeded",
    metadata: fields.shopRefundId ? { shopRefundId: String(fields.shopRefundId) } : {},
  };
}

/** What the order's figures read: its row, its refunds, what is left, and its contest's sales. */
function figuresOf(order: typeof orders.$inferSelect) {
  const row = db().select().from(orders).where(eq(orders.id, order.id)).get()!;
  const page = orderPage(row);
  const sales = salesReport({ contest: row.contestName, from: null, to: null });
  return {
    row,
    refunds: db().select().from(refunds).where(eq(refunds.orderId, order.id)).all(),
    left: page.left,
    sales: { gross: sales.gross, refunds: sales.refunds, net: sales.net },
  };
}

const ledgerOf = (paymentIntentId: string) =>
  db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, paymentIntentId)).all();

describe("money from the provider is checked", () => {
  it("refund larger than the order: a signed charge.refunded for 300,000円 on a 3,000円 order goes to the stray-payment ledger, not the order", async () => {
    const admin = db()
      .insert(users)
      .values({ email: `refund-check-${unique()}@example.jp`, passwordHash: "x", isAdmin: true })
      .returning()
      .get();
    const order = await paidOrderOf3000();
    const before = figuresOf(order);
    const badges = unrefundedStrayPaymentCount();
    const refund = { ...stripeRefund(order, { amount: 300_000 }), charge: `ch_${unique()}` };
    const charge = {
      id: refund.charge,
      object: "charge",
      amount: 3000,
      amount_refunded: 300_000,
      currency: "jpy",
      payment_intent: order.paymentIntentId,
      refunded: true,
      payment_method_details: { type: "card" },
      refunds: { object: "list", data: [refund], has_more: false },
    };
    const event = signedEvent(charge, { type: "charge.refunded" });
    expect((await postWebhook(event)).status).toBe(200);
    // Stripe's retry of the same event, the same report in another event, and the refund's own event.
    expect((await postWebhook(event)).data).toMatchObject({ duplicate: true });
    expect((await postWebhook(signedEvent(charge, { type: "charge.refunded" }))).status).toBe(200);
    expect((await postWebhook(signedEvent(refund, { type: "refund.updated" }))).status).toBe(200);

    // The order, its refunds, what is left of it and its contest's sales are as they were.
    expect(figuresOf(order)).toEqual(before);
    expect(before.refunds).toEqual([]);
    expect(before.left).toBe(3000);
    expect(before.sales).toEqual({ gross: 3000, refunds: 0, net: 3000 });
    expect(ledgerOf(order.paymentIntentId)).toMatchObject([
      {
        reason: "refund_over",
        amount: 300_000,
        currency: "jpy",
        providerRefundId: refund.id,
        orderId: order.id,
      },
    ]);
    expect(ledgerOf(order.paymentIntentId)[0]!.detail).toContain("返金できる残り（3,000円）を超えています");
    // The admin sees it on the ledger's screen, with nothing to refund from there, and hears once.
    const entry = strayPaymentLedger().find((e) => e.providerRefundId === refund.id);
    expect(entry).toMatchObject({
      amountLabel: "300,000円",
      reasonLabel: "返金できる残りより多い返金の報告（注文には記録していません）",
      orderNumber: order.orderNumber,
      refundable: false,
    });
    expect(unrefundedStrayPaymentCount()).toBe(badges);
    expect(
      await refundStrayPayment({
        strayPaymentId: entry!.id,
        requestKey: `r-${unique()}`,
        adminUserId: admin.id,
      }),
    ).toMatchObject({ ok: false, status: 409 });
    const mails = () => fake.smtp.received.filter((mail) => mail.to.includes(admin.email));
    await until(() => mails().length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.subject).toContain("【要確認】注文に記録しなかった返金の報告があります（300,000円）");
    expect(mails()[0]!.text).toContain(refund.id);
  });

  it("a charge.refunded that lists no refunds (today's API versions) is checked by its total refunded", async () => {
    const order = await paidOrderOf3000();
    const before = figuresOf(order);
    const charge = {
      id: `ch_${unique()}`,
      object: "charge",
      amount: 3000,
      amount_refunded: 300_000,
      currency: "jpy",
      payment_intent: order.paymentIntentId,
      refunded: true,
      payment_method_details: { type: "card" },
    };
    expect((await postWebhook(signedEvent(charge, { type: "charge.refunded" }))).status).toBe(200);
    expect(figuresOf(order)).toEqual(before);
    expect(ledgerOf(order.paymentIntentId)).toMatchObject([
      { reason: "refund_over", amount: 300_000, providerRefundId: charge.id, orderId: order.id },
    ]);
    // A total that fits changes nothing and files nothing: its refunds come as their own events.
    const fits = { ...charge, id: `ch_${unique()}`, amount_refunded: 1000 };
    expect((await postWebhook(signedEvent(fits, { type: "charge.refunded" }))).status).toBe(200);
    expect(ledgerOf(order.paymentIntentId)).toHaveLength(1);
    expect(figuresOf(order)).toEqual(before);
  });

  it("refund in another currency: a signed refund of 20.00 USD on a 3,000円 order goes to the ledger, not the order", async () => {
    const order = await paidOrderOf3000();
    const before = figuresOf(order);
    const refund = stripeRefund(order, { amount: 2000, currency: "usd" });
    expect((await postWebhook(signedEvent(refund, { type: "refund.created" }))).status).toBe(200);
    expect(figuresOf(order)).toEqual(before);
    expect(ledgerOf(order.paymentIntentId)).toMatchObject([
      { reason: "refund_currency", amount: 2000, currency: "usd", providerRefundId: refund.id },
    ]);
    expect(ledgerOf(order.paymentIntentId)[0]!.detail).toBe(
      "報告された返金の通貨（USD）が、注文 " + order.orderNumber + "の通貨（JPY）と違います。",
    );
    expect(strayPaymentLedger().find((e) => e.providerRefundId === refund.id)?.amountLabel).toBe("2000 USD");
  });

  it("a refund of a negative or fractional amount, or of another amount than the shop asked for, goes to the ledger", async () => {
    const order = await paidOrderOf3000();
    const untouched = figuresOf(order);
    const negative = stripeRefund(order, { amount: -5 });
    const fraction = stripeRefund(order, { amount: 1.5 });
    await postWebhook(signedEvent(negative, { type: "refund.created" }));
    await postWebhook(signedEvent(fraction, { type: "refund.created" }));
    expect(figuresOf(order)).toEqual(untouched);
    // The shop's own refund of 1,000円, then reported with 2,500円 under its id.
    const asked = await refundOrder({
      orderId: order.id,
      lineIds: [],
      amount: 1000,
      reason: "一部を返金",
      requestKey: `asked-${unique()}`,
      adminUserId: refundAdmin().id,
    });
    expect(asked).toMatchObject({ ok: true, refund: { amount: 1000, status: "succeeded" } });
    if (!asked.ok) return;
    const before = figuresOf(order);
    const changed = stripeRefund(order, {
      id: asked.refund.providerRefundId!,
      amount: 2500,
      shopRefundId: asked.refund.id,
    });
    await postWebhook(signedEvent(changed, { type: "refund.updated" }));
    expect(figuresOf(order)).toEqual(before);
    expect(before.refunds).toMatchObject([{ amount: 1000, status: "succeeded" }]);

    expect(
      ledgerOf(order.paymentIntentId).map((row) => [row.providerRefundId, row.reason, row.amount]),
    ).toEqual([
      [negative.id, "refund_amount", -5],
      [fraction.id, "refund_amount", 1.5],
      [changed.id, "refund_amount", 2500],
    ]);
  });

  it("partial refunds that fit are recorded exactly once, whatever order their events arrive in and however often", async () => {
    const order = await paidOrderOf3000();
    // The shop's own 1,000円 (its webhooks must not write it twice) and two made at the dashboard.
    const asked = await refundOrder({
      orderId: order.id,
      lineIds: [],
      amount: 1000,
      reason: "一部を返金",
      requestKey: `fits-${unique()}`,
      adminUserId: refundAdmin().id,
    });
    if (!asked.ok) throw new Error(asked.message);
    const own = stripeRefund(order, {
      id: asked.refund.providerRefundId!,
      amount: 1000,
      shopRefundId: asked.refund.id,
    });
    const first = stripeRefund(order, { amount: 500, status: "pending" });
    const second = stripeRefund(order, { amount: 1500, status: "pending" });
    const done = (refund: typeof first) => ({ ...refund, status: "succeeded" });
    const events = [
      signedEvent(done(second), { type: "refund.updated" }),
      signedEvent(own, { type: "refund.created" }),
      signedEvent(first, { type: "refund.created" }),
      signedEvent(second, { type: "refund.created" }),
      signedEvent(done(first), { type: "refund.updated" }),
      signedEvent(own, { type: "refund.updated" }),
    ];
    for (const event of [...events, ...events.slice(0, 3)])
      expect((await postWebhook(event)).status).toBe(200);
    // The same reports again under new event ids, as a replay from the dashboard sends them.
    for (const refund of [own, done(first), done(second)])
      await postWebhook(signedEvent(refund, { type: "refund.updated" }));

    const after = figuresOf(order);
    expect(after.refunds.map((row) => [row.amount, row.status])).toEqual([
      [1000, "succeeded"],
      [1500, "succeeded"],
      [500, "succeeded"],
    ]);
    expect(after.left).toBe(0);
    expect(ledgerOf(order.paymentIntentId)).toEqual([]);
    // Nothing is left: one more yen does not fit.
    const more = stripeRefund(order, { amount: 1 });
    await postWebhook(signedEvent(more, { type: "refund.created" }));
    expect(figuresOf(order)).toEqual(after);
    expect(ledgerOf(order.paymentIntentId)).toMatchObject([
      { reason: "refund_over", providerRefundId: more.id },
    ]);
  });
});
