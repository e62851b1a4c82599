import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { orders, refunds, strayPayments, users } from "~/server/db/schema";
import { paymentProvider } from "~/server/payments/index.server";
import { refundIdempotencyKey } from "~/server/payments/refund-idempotency.server";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { refundStrayPayment } from "~/server/refunds/stray-payments.server";
import { refundAdmin } from "../../helpers/refund-orders";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

const fake = withStripeShop();

let key = 0;
const requestKey = () => `stripe-refund-${process.pid}-${++key}-${Math.random()}`;
const mailsTo = (email: string) => fake.smtp.received.filter((mail) => mail.to.includes(email));

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A verified checkout of two lines (3,000円 + 4,500円) and its intent at the local Stripe. */
async function intentOfCheckout() {
  const { intent } = await intentOfVerifiedCheckout(fake);
  return { intent: intent! };
}

/** A card order, paid and reported by Stripe's signed webhook. */
async function paidCardOrder() {
  const { intent } = await intentOfCheckout();
  expect((await postWebhook(signedEvent(fake.stripe.succeed(intent.id)))).status).toBe(200);
  return db().select().from(orders).where(eq(orders.paymentIntentId, intent.id)).get()!;
}

/** A konbini order: the voucher shown, then paid at the store, both reported by the webhook. */
async function paidKonbiniOrder() {
  const { intent } = await intentOfCheckout();
  fake.stripe.showKonbiniVoucher(intent.id, new Date(Date.now() + 3 * 86_400_000));
  await postWebhook(signedEvent(intent, { type: "payment_intent.requires_action" }));
  await postWebhook(signedEvent(fake.stripe.payKonbini(intent.id)));
  const order = db().select().from(orders).where(eq(orders.paymentIntentId, intent.id)).get()!;
  expect(order).toMatchObject({ paymentMethod: "konbini", paymentStatus: "paid" });
  return order;
}

const refundRequests = () =>
  fake.stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");

describe("refunds through Stripe (real SDK against a local Stripe-speaking server)", () => {
  it("refunds.create on the payment intent with the amount and an idempotency key per refund; the card refund succeeds and the customer is mailed", async () => {
    const order = await paidCardOrder();
    const before = refundRequests().length;
    const key = requestKey();
    const result = await refundOrder({
      orderId: order.id,
      lineIds: [],
      amount: 4500,
      reason: "撮影できなかったため",
      requestKey: key,
      adminUserId: refundAdmin().id,
    });
    expect(result).toMatchObject({ ok: true, refund: { status: "succeeded", amount: 4500, method: "card" } });
    if (!result.ok) return;
    const sent = refundRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.get("payment_intent")).toBe(order.paymentIntentId);
    expect(sent[0]!.body.get("amount")).toBe("4500");
    expect(sent[0]!.body.get("metadata[shopRefundId]")).toBe(String(result.refund.id));
    expect(sent[0]!.idempotencyKey).toBe(refundIdempotencyKey(result.refund.id, key));
    expect(sent[0]!.body.has("instructions_email")).toBe(false);
    expect(result.refund.providerRefundId).toBe([...fake.stripe.refunds.keys()].at(-1));
    await until(() => mailsTo(order.customerEmail).some((mail) => mail.subject.includes("返金のお知らせ")));
    expect(
      mailsTo(order.customerEmail).filter((mail) => mail.subject.includes("返金のお知らせ")),
    ).toHaveLength(1);
  });

  it("asking again for the same refund (a retry after a network fault) is the same refund at Stripe", async () => {
    const order = await paidCardOrder();
    const ask = () =>
      paymentProvider().createRefund({
        paymentIntentId: order.paymentIntentId,
        amount: 1000,
        shopRefundId: 987_654,
        requestKey: "retried-row",
        customerEmail: null,
      });
    const first = await ask();
    expect((await ask()).id).toBe(first.id);
    expect(
      [...fake.stripe.refunds.values()].filter((r) => r.payment_intent === order.paymentIntentId),
    ).toHaveLength(1);
  });

  it("a konbini refund passes instructions_email (the order's own address) and stays processing until refund.updated reports it succeeded", async () => {
    const order = await paidKonbiniOrder();
    const result = await refundOrder({
      orderId: order.id,
      lineIds: [],
      amount: 7500,
      reason: "大会が中止になったため",
      requestKey: requestKey(),
      adminUserId: refundAdmin().id,
    });
    expect(result).toMatchObject({ ok: true, refund: { status: "processing", method: "konbini" } });
    if (!result.ok) return;
    expect(refundRequests().at(-1)!.body.get("instructions_email")).toBe(order.customerEmail);
    const stripeRefund = fake.stripe.refunds.get(result.refund.providerRefundId!)!;
    expect(stripeRefund.status).toBe("requires_action");

    // A forged event (another secret) changes nothing.
    const forged = signedEvent(
      { ...stripeRefund, status: "succeeded" },
      { type: "refund.updated", secret: "whsec_forged" },
    );
    expect((await postWebhook(forged)).status).toBe(400);
    expect(db().select().from(refunds).where(eq(refunds.id, result.refund.id)).get()?.status).toBe(
      "processing",
    );

    // The customer gave an account, Stripe paid it out and reports it.
    const done = signedEvent(fake.stripe.completeRefund(stripeRefund.id), {
      type: "refund.updated",
      id: `evt_refund_done_${result.refund.id}`,
    });
    expect((await postWebhook(done)).status).toBe(200);
    const row = db().select().from(refunds).where(eq(refunds.id, result.refund.id)).get()!;
    expect(row.status).toBe("succeeded");
    expect(row.succeededAt).toBeInstanceOf(Date);
    // The same event again is a duplicate; an older charge.refund.updated (still pending) does not take it back.
    expect((await postWebhook(done)).data).toMatchObject({ duplicate: true });
    await postWebhook(signedEvent({ ...stripeRefund, status: "pending" }, { type: "charge.refund.updated" }));
    expect(db().select().from(refunds).where(eq(refunds.id, result.refund.id)).get()?.status).toBe(
      "succeeded",
    );
    await until(() => mailsTo(order.customerEmail).some((mail) => mail.subject.includes("返金のお知らせ")));
    const mails = mailsTo(order.customerEmail).filter((mail) => mail.subject.includes("返金のお知らせ"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("銀行振込");
  });

  it("a refund made at Stripe's dashboard is written down against its order", async () => {
    const order = await paidCardOrder();
    const dashboardRefund = {
      id: "re_dashboard_1",
      object: "refund",
      amount: 3000,
      currency: "jpy",
      payment_intent: order.paymentIntentId,
      status: "succeeded",
      metadata: {},
    };
    expect((await postWebhook(signedEvent(dashboardRefund, { type: "refund.created" }))).status).toBe(200);
    expect(db().select().from(refunds).where(eq(refunds.orderId, order.id)).all()).toMatchObject([
      { amount: 3000, status: "succeeded", adminUserId: null, providerRefundId: "re_dashboard_1" },
    ]);
  });
});

describe("stray payments (the ledger)", () => {
  it("a second payment for a checkout that has its order is written once, mailed to each admin once, answered 200, and refunded in full from the ledger", async () => {
    const admin = db()
      .insert(users)
      .values({ email: `stray-admin-${Date.now()}@example.jp`, passwordHash: "x", isAdmin: true })
      .returning()
      .get();
    const order = await paidCardOrder();
    // The same checkout paid again (a second intent made for it, e.g. in another tab).
    const second = await paymentProvider().createIntent({
      checkoutId: order.checkoutId,
      amount: 7500,
      email: order.customerEmail,
      replaces: order.paymentIntentId,
    });
    const event = signedEvent(fake.stripe.succeed(second.id));
    expect((await postWebhook(event)).status).toBe(200);
    expect((await postWebhook(signedEvent(fake.stripe.intents.get(second.id)!))).status).toBe(200);
    const ledger = db()
      .select()
      .from(strayPayments)
      .where(eq(strayPayments.paymentIntentId, second.id))
      .all();
    expect(ledger).toMatchObject([{ reason: "second_payment", amount: 7500, orderId: order.id }]);
    await until(() => mailsTo(admin.email).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mailsTo(admin.email)).toHaveLength(1);
    expect(mailsTo(admin.email)[0]!.subject).toContain("注文にならなかった決済");

    const refund = await refundStrayPayment({
      strayPaymentId: ledger[0]!.id,
      requestKey: requestKey(),
      adminUserId: admin.id,
    });
    expect(refund).toMatchObject({ ok: true, refund: { status: "succeeded", amount: 7500 } });
    expect(refundRequests().at(-1)!.body.get("payment_intent")).toBe(second.id);
    // The payer, who saw the money leave twice, hears that the second payment came back.
    await until(() => mailsTo(order.customerEmail).some((mail) => mail.subject.includes("重複したお支払い")));
    const payerMail = mailsTo(order.customerEmail).find((mail) => mail.subject.includes("重複したお支払い"));
    expect(payerMail?.text).toContain("2回目のお支払いの全額を返金いたしました");
    expect(payerMail?.text).toContain("7,500円");
    expect(
      await refundStrayPayment({
        strayPaymentId: ledger[0]!.id,
        requestKey: requestKey(),
        adminUserId: admin.id,
      }),
    ).toMatchObject({ ok: false, status: 409 });
  });

  it("a payment of another amount, or with no checkout, makes no order, is written in the ledger and answered 200", async () => {
    const { intent } = await intentOfCheckout();
    fake.stripe.succeed(intent.id).amount = 1;
    expect((await postWebhook(signedEvent(intent))).status).toBe(200);
    expect(db().select().from(orders).where(eq(orders.paymentIntentId, intent.id)).get()).toBeUndefined();
    expect(
      db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, intent.id)).get(),
    ).toMatchObject({
      reason: "amount",
      amount: 1,
    });

    const orphan = await paymentProvider().createIntent({
      checkoutId: "no-such-checkout",
      amount: 5000,
      email: "o@example.jp",
    });
    expect((await postWebhook(signedEvent(fake.stripe.succeed(orphan.id)))).status).toBe(200);
    expect(
      db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, orphan.id)).get(),
    ).toMatchObject({
      reason: "no_checkout",
      amount: 5000,
      checkoutId: "no-such-checkout",
    });
  });
});
