import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders } from "~/server/db/schema";
import { konbiniVoucherShown, returnFromStripe } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

const fake = withStripeShop({ KONBINI_EXPIRES_AFTER_DAYS: "4" });

const orderOf = (email: string) => db().select().from(orders).where(eq(orders.customerEmail, email)).all();
const mailsTo = (email: string) => fake.smtp.received.filter((mail) => mail.to.includes(email));

describe("konbini with Stripe (real SDK against a local API)", () => {
  it("the intent offers card and konbini, with the configured expiry and a product description of at most 22 characters", async () => {
    const { intent } = await konbiniVoucherShown(fake);
    expect(intent.allowed_payment_method_types).toEqual(["card", "konbini"]);
    expect(intent.payment_method_options.konbini?.expires_after_days).toBe("4");
    const description = intent.payment_method_options.konbini?.product_description ?? "";
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(22);
  });

  it("the return after the voucher makes the order 入金待ち with the voucher, and mails the voucher; nothing is paid yet", async () => {
    const { cookie, email, intent, dueAt } = await konbiniVoucherShown(fake);
    const back = await returnFromStripe(intent.id, cookie);
    expect(back.location).toBe("/payment-complete");
    const [order] = orderOf(email);
    expect(order).toMatchObject({
      paymentMethod: "konbini",
      paymentStatus: "awaiting",
      paidAt: null,
      konbiniVoucherUrl: expect.stringContaining("https://payments.stripe.com/konbini/voucher/"),
    });
    expect(order!.konbiniConfirmationNumber).toMatch(/^\d{11}$/);
    expect(order!.paymentDueAt?.getTime()).toBe(dueAt.getTime());
    await vi.waitFor(() =>
      expect(mailsTo(email).some((m) => m.subject.includes("コンビニでのお支払いのご案内"))).toBe(true),
    );
    const voucherMail = mailsTo(email).find((m) => m.subject.includes("コンビニでのお支払いのご案内"))!;
    expect(voucherMail.text).toContain(order!.konbiniConfirmationNumber!);
    expect(voucherMail.text).toContain(`/orders/${order!.statusToken}`);
    // Stripe's steps: each store's payment number is on its hosted voucher, linked; no phone number.
    const { HOSTED_VOUCHER_LABEL, konbiniSteps } = await import("~/lib/rules/konbini-steps");
    const { formatDateTime } = await import("~/lib/rules/format");
    for (const step of konbiniSteps({ hostedVoucher: true, due: formatDateTime(dueAt) }))
      expect(voucherMail.text).toContain(step);
    expect(voucherMail.text).toContain(`${HOSTED_VOUCHER_LABEL}: ${order!.konbiniVoucherUrl}`);
    expect(voucherMail.text).not.toContain("電話番号");
  });

  it("a signed payment_intent.succeeded that arrives twice marks the order paid once, with one mail", async () => {
    const { cookie, email, intent } = await konbiniVoucherShown(fake);
    await returnFromStripe(intent.id, cookie);
    const paid = fake.stripe.payKonbini(intent.id);
    expect((await postWebhook(signedEvent(paid, { id: "evt_konbini_paid_1" }))).status).toBe(200);
    // Stripe retries with the same event, and a second delivery of the same news can carry a new id.
    expect((await postWebhook(signedEvent(paid, { id: "evt_konbini_paid_1" }))).data).toMatchObject({
      duplicate: true,
    });
    expect((await postWebhook(signedEvent(paid, { id: "evt_konbini_paid_2" }))).status).toBe(200);
    const [order] = orderOf(email);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "未対応" });
    expect(order!.paidAt).toBeInstanceOf(Date);
    await vi.waitFor(() =>
      expect(mailsTo(email).filter((m) => m.subject.includes("お支払いを確認しました"))).toHaveLength(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(email).filter((m) => m.subject.includes("お支払いを確認しました"))).toHaveLength(1);
  });

  it("payment_intent.requires_action alone (the browser never came back) makes the 入金待ち order", async () => {
    const { email, intent } = await konbiniVoucherShown(fake);
    expect((await postWebhook(signedEvent(intent, { type: "payment_intent.requires_action" }))).status).toBe(
      200,
    );
    expect(orderOf(email)).toMatchObject([{ paymentStatus: "awaiting", paymentMethod: "konbini" }]);
  });

  it("an expired voucher (payment_intent.payment_failed) ends the order 期限切れ; a canceled event after payment changes nothing", async () => {
    const first = await konbiniVoucherShown(fake);
    await returnFromStripe(first.intent.id, first.cookie);
    await postWebhook(signedEvent(first.intent, { type: "payment_intent.payment_failed" }));
    expect(orderOf(first.email)).toMatchObject([{ paymentStatus: "expired", paidAt: null }]);
    await vi.waitFor(() =>
      expect(mailsTo(first.email).some((m) => m.subject.includes("ご注文を取り消しました"))).toBe(true),
    );

    const second = await konbiniVoucherShown(fake);
    await returnFromStripe(second.intent.id, second.cookie);
    await postWebhook(signedEvent(fake.stripe.payKonbini(second.intent.id)));
    await postWebhook(signedEvent(second.intent, { type: "payment_intent.canceled" }));
    expect(orderOf(second.email)).toMatchObject([{ paymentStatus: "paid" }]);
  });

  it("a store payment reported after the shop expired the order still makes it paid (the money is in)", async () => {
    const { cookie, email, intent } = await konbiniVoucherShown(fake);
    await returnFromStripe(intent.id, cookie);
    await postWebhook(signedEvent(intent, { type: "payment_intent.payment_failed" }));
    expect(orderOf(email)).toMatchObject([{ paymentStatus: "expired" }]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await postWebhook(signedEvent(fake.stripe.payKonbini(intent.id)));
    expect(orderOf(email)).toMatchObject([{ paymentStatus: "paid" }]);
    expect(errors.mock.calls.some(([message]) => String(message).includes("後から確認されました"))).toBe(
      true,
    );
    errors.mockRestore();
  });

  it("reconciliation: a lost succeeded webhook makes the order paid; a voucher past its deadline is canceled at Stripe and ends 期限切れ", async () => {
    const lostWebhook = await konbiniVoucherShown(fake);
    await returnFromStripe(lostWebhook.intent.id, lostWebhook.cookie);
    fake.stripe.payKonbini(lostWebhook.intent.id);

    const overdue = await konbiniVoucherShown(fake);
    await returnFromStripe(overdue.intent.id, overdue.cookie);
    db()
      .update(orders)
      .set({ paymentDueAt: new Date(Date.now() - 1000) })
      .where(eq(orders.paymentIntentId, overdue.intent.id))
      .run();

    const { reconcileKonbiniPayments } = await import("~/server/orders/konbini.server");
    const counts = await reconcileKonbiniPayments();
    expect(counts.paid).toBeGreaterThanOrEqual(1);
    expect(counts.expired).toBeGreaterThanOrEqual(1);
    expect(orderOf(lostWebhook.email)).toMatchObject([{ paymentStatus: "paid" }]);
    expect(orderOf(overdue.email)).toMatchObject([{ paymentStatus: "expired" }]);
    expect(fake.stripe.intents.get(overdue.intent.id)?.status).toBe("canceled");
    expect(
      fake.stripe.requests.some(
        (r) => r.method === "POST" && r.path === `/v1/payment_intents/${overdue.intent.id}/cancel`,
      ),
    ).toBe(true);
    // Again: nothing changes.
    expect(await reconcileKonbiniPayments()).toEqual({ paid: 0, expired: 0 });
  });
});
