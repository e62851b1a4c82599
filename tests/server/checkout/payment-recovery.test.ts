import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { checkouts, orderLines, orders } from "~/server/db/schema";
import { recoverUnrecordedPayments } from "~/server/checkout/payment-recovery.server";
import { testProvider } from "~/server/payments/test-provider.server";
import { checkoutUntilVerified } from "../../helpers/checkout-flow";
import { callRoute } from "../../helpers/route";
import { seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

/** A customer who reached /payment: the payment intent exists, nothing is paid yet. */
async function customerAtPayment() {
  const shop = seedContest();
  const { cookie, email } = await checkoutUntilVerified(
    shop,
    [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.horizontal.id }],
    smtp.received,
  );
  const payment = await import("~/routes/checkout/payment");
  await callRoute(payment.loader, new Request("http://shop.test/payment", { headers: { Cookie: cookie } }));
  const checkout = db().select().from(checkouts).where(eq(checkouts.customerEmail, email)).get();
  return { email, intentId: checkout!.paymentIntentId! };
}

async function waitForMails(email: string, count: number) {
  for (let i = 0; i < 100 && smtp.received.filter((m) => m.to.includes(email)).length < count; i++)
    await new Promise((r) => setTimeout(r, 20));
}

describe("payments without an order, reconciled at start-up (test provider)", () => {
  it("makes the missing order once, with its lines and its confirmation mail", async () => {
    const { email, intentId } = await customerAtPayment();
    // The card went through at the provider, then the server died before the order was written.
    expect((await testProvider.confirmCard(intentId, "4242424242424242")).ok).toBe(true);
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);

    expect(await recoverUnrecordedPayments()).toBeGreaterThanOrEqual(1);
    const made = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ paymentIntentId: intentId, totalAmount: 4500 });
    expect(db().select().from(orderLines).where(eq(orderLines.orderId, made[0]!.id)).all()).toHaveLength(1);

    // A second start (or a second server) finds nothing left to do.
    await recoverUnrecordedPayments();
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(1);
    await waitForMails(email, 2);
    expect(
      smtp.received.filter((m) => m.to.includes(email) && m.subject.includes("ご注文ありがとうございます")),
    ).toHaveLength(1);
  });

  it("makes nothing of a declined or unpaid payment", async () => {
    const declined = await customerAtPayment();
    expect((await testProvider.confirmCard(declined.intentId, "4000000000000002")).ok).toBe(false);
    const unpaid = await customerAtPayment();
    await recoverUnrecordedPayments();
    for (const { email } of [declined, unpaid])
      expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);
  });
});
