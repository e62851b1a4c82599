import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders, strayPayments } from "~/server/db/schema";
import { reconcileKonbiniPayments } from "~/server/orders/konbini.server";
import { callRoute } from "../../../helpers/route";
import { adminCookie, formRequest } from "../../../helpers/shop";
import { konbiniVoucherShown, returnFromStripe } from "../../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../../helpers/stripe-events";

const fake = withStripeShop();

/** A konbini order 入金待ち at Stripe: the voucher shown and the browser back from it. */
async function awaitingAtStripe() {
  const { cookie, email, intent } = await konbiniVoucherShown(fake);
  await returnFromStripe(intent.id, cookie);
  const order = db().select().from(orders).where(eq(orders.customerEmail, email)).get()!;
  expect(order.paymentStatus).toBe("awaiting");
  return { order, intent, email };
}

async function confirmByHand(orderNumber: string) {
  const { action } = await import("~/routes/admin/order");
  const done = await callRoute(
    action,
    formRequest(`/admin/orders/${orderNumber}`, [["intent", "manual-payment"]], await adminCookie()),
    { orderNumber },
  );
  expect(done.status).toBe(303);
}

const orderNow = (id: number) => db().select().from(orders).where(eq(orders.id, id)).get()!;

describe("入金確認（手動） with Stripe (real SDK against a local API)", () => {
  it("Stripe's payment_intent.succeeded after it finds the order paid: one order, no stray payment, one mail, the report noted", async () => {
    const { order, intent, email } = await awaitingAtStripe();
    await confirmByHand(order.orderNumber);
    expect(orderNow(order.id)).toMatchObject({
      paymentStatus: "paid",
      manualPaymentConfirmedBy: expect.stringContaining("@"),
      providerPaymentReportedAt: null,
    });

    const answer = await postWebhook(signedEvent(fake.stripe.payKonbini(intent.id)));
    expect(answer.status).toBe(200);
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(1);
    expect(
      db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, intent.id)).all(),
    ).toEqual([]);
    expect(orderNow(order.id).providerPaymentReportedAt).toBeInstanceOf(Date);
    await vi.waitFor(() =>
      expect(
        fake.smtp.received.filter(
          (m) => m.to.includes(email) && m.subject.includes("お支払いを確認しました"),
        ),
      ).toHaveLength(1),
    );
  });

  it("a lost webhook: the hourly check finds the payment at Stripe and notes it; an expiry reported instead leaves the order paid and warns", async () => {
    const lost = await awaitingAtStripe();
    await confirmByHand(lost.order.orderNumber);
    fake.stripe.payKonbini(lost.intent.id);
    await reconcileKonbiniPayments();
    expect(orderNow(lost.order.id)).toMatchObject({ paymentStatus: "paid" });
    expect(orderNow(lost.order.id).providerPaymentReportedAt).toBeInstanceOf(Date);

    const unpaid = await awaitingAtStripe();
    await confirmByHand(unpaid.order.orderNumber);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await postWebhook(signedEvent(unpaid.intent, { type: "payment_intent.payment_failed" }));
    expect(orderNow(unpaid.order.id)).toMatchObject({
      paymentStatus: "paid",
      providerPaymentReportedAt: null,
    });
    expect(errors.mock.calls.some(([message]) => String(message).includes("手動で入金確認しましたが"))).toBe(
      true,
    );
    errors.mockRestore();
  });
});
