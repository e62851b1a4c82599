import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders, strayPayments, users } from "~/server/db/schema";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

const fake = withStripeShop();

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A checkout whose payment succeeded at Stripe. */
async function succeededIntent() {
  const { intent, email } = await intentOfVerifiedCheckout(fake, { both: false });
  return { intent: fake.stripe.succeed(intent!.id), email };
}

describe("a stray payment reported by Stripe's webhook", () => {
  it("lands in the ledger once, mails each admin once, and the webhook answers 200 each time", async () => {
    const admins = ["stray-a", "stray-b"].map((name) =>
      db()
        .insert(users)
        .values({ email: `${name}-${Date.now()}@example.jp`, passwordHash: "x", isAdmin: true })
        .returning()
        .get(),
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { intent, email } = await succeededIntent();
      expect((await postWebhook(signedEvent(intent))).status).toBe(200);
      const [order] = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
      expect(order).toBeDefined();
      // The customer paid again for the same checkout (a second tab): Stripe reports it, twice
      // (its retries carry the same event; a second event about the same payment may follow).
      const second = { ...intent, id: `pi_second_${Math.random().toString(36).slice(2, 10)}` };
      fake.stripe.intents.set(second.id, second);
      const event = signedEvent(second);
      expect((await postWebhook(event)).status).toBe(200);
      expect((await postWebhook(event)).status).toBe(200);
      expect((await postWebhook(signedEvent(second))).status).toBe(200);

      const recorded = db()
        .select()
        .from(strayPayments)
        .where(eq(strayPayments.paymentIntentId, second.id))
        .all();
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        reason: "second_payment",
        amount: intent.amount,
        currency: "jpy",
        orderId: order!.id,
        customerEmail: email,
      });
      expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(1);

      const everyAdmin = db().select().from(users).where(eq(users.isAdmin, true)).all();
      const mailsAbout = () => fake.smtp.received.filter((mail) => mail.text.includes(second.id));
      await until(() => mailsAbout().length >= everyAdmin.length);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const mails = mailsAbout();
      expect(mails.map((mail) => mail.to).sort()).toEqual(everyAdmin.map((admin) => [admin.email]).sort());
      for (const admin of admins) expect(mails.some((mail) => mail.to.includes(admin.email))).toBe(true);
      expect(mails[0]!.subject).toContain("注文にならなかった決済");
      expect(mails[0]!.text).toContain(order!.orderNumber);
      expect(mails[0]!.text).toContain("/admin/stray-payments");
      expect(mails[0]!.text).toContain("自動では返金されません");
      // Recorded, not refunded: the admin decides, from the ledger.
      expect(fake.stripe.requests.some((r) => r.path.includes("refund"))).toBe(false);
    } finally {
      errors.mockRestore();
    }
  });
});
