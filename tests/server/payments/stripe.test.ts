import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { checkouts, orderLines, orders } from "~/server/db/schema";
import { callRoute } from "../../helpers/route";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { postWebhook, signedEvent, withStripeShop } from "../../helpers/stripe-events";

const fake = withStripeShop();

/** The browser claims the order costs 1 yen: the server's total is what counts. */
const paidCheckout = () => intentOfVerifiedCheckout(fake, { body: JSON.stringify({ amount: 1 }) });

describe("Stripe (real SDK against a local API)", () => {
  it("creates the PaymentIntent for the server's total in JPY, whatever the client sends", async () => {
    const { response } = await paidCheckout();
    expect(response.status).toBe(200);
    const { clientSecret } = response.data as { clientSecret: string };
    const intent = [...fake.stripe.intents.values()].find((i) => i.client_secret === clientSecret);
    expect(intent).toMatchObject({ amount: 7500, currency: "jpy" });
    expect(
      fake.stripe.requests.some((r) => r.path === "/v1/payment_intents" && r.body.get("amount") === "7500"),
    ).toBe(true);
  });

  it("an intent ended by an address change is followed by a new one for the same amount (not Stripe's cached answer to the same key)", async () => {
    const { paymentProvider } = await import("~/server/payments/index.server");
    const provider = paymentProvider();
    const first = await provider.createIntent({
      checkoutId: "chk_idem",
      amount: 3000,
      email: "a@example.jp",
    });
    // A retried creation is the same intent (the idempotency key).
    expect(
      (await provider.createIntent({ checkoutId: "chk_idem", amount: 3000, email: "a@example.jp" })).id,
    ).toBe(first.id);
    expect((await provider.cancelIntent(first.id))?.status).toBe("canceled");
    const next = await provider.createIntent({
      checkoutId: "chk_idem",
      amount: 3000,
      email: "b@example.jp",
      replaces: first.id,
    });
    expect(next.id).not.toBe(first.id);
    expect(next.status).toBe("requires_payment_method");
  });

  it("a signed payment_intent.succeeded makes one order; a replay of the same event makes nothing more", async () => {
    const { response, email } = await paidCheckout();
    const intent = [...fake.stripe.intents.values()].find(
      (i) => i.client_secret === (response.data as { clientSecret: string }).clientSecret,
    )!;
    const event = signedEvent(fake.stripe.succeed(intent.id), { id: "evt_replayed_once" });
    expect((await postWebhook(event)).status).toBe(200);
    const replay = await postWebhook(event);
    expect(replay).toMatchObject({ status: 200, data: { duplicate: true } });
    const made = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
    expect(made).toHaveLength(1);
    expect(made[0]?.totalAmount).toBe(7500);
    const lines = db().select().from(orderLines).where(eq(orderLines.orderId, made[0]!.id)).all();
    expect(lines.map((l) => [l.lineNumber, l.price])).toEqual([
      [`${made[0]!.orderNumber}-1`, 3000],
      [`${made[0]!.orderNumber}-2`, 4500],
    ]);
  });

  it("the return from Stripe makes the order (or finds the webhook's) and shows it; another session's payment is refused", async () => {
    const { response, cookie, email } = await paidCheckout();
    const intent = fake.stripe.succeed(
      [...fake.stripe.intents.values()].find(
        (i) => i.client_secret === (response.data as { clientSecret: string }).clientSecret,
      )!.id,
    );
    const back = await import("~/routes/checkout/payment-return");
    const stranger = await callRoute(
      back.loader,
      new Request(`http://shop.test/payment/return?payment_intent=${intent.id}`),
    );
    expect(stranger.location).toBe("/payment");
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);

    await postWebhook(signedEvent(intent));
    const result = await callRoute(
      back.loader,
      new Request(`http://shop.test/payment/return?payment_intent=${intent.id}`, {
        headers: { Cookie: cookie },
      }),
    );
    expect(result.location).toBe("/payment-complete");
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(1);
  });

  it.each([
    ["a bad signature", { secret: "whsec_wrong" }],
    ["a timestamp older than 300 s", { timestamp: Math.floor(Date.now() / 1000) - 301 }],
  ])("a webhook with %s creates nothing", async (_label, options) => {
    const { response, email } = await paidCheckout();
    const intent = [...fake.stripe.intents.values()].find(
      (i) => i.client_secret === (response.data as { clientSecret: string }).clientSecret,
    )!;
    const result = await postWebhook(signedEvent(fake.stripe.succeed(intent.id), options));
    expect(result.status).toBe(400);
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);
  });

  it("an unsigned or garbage body is a 400, not a 500", async () => {
    const webhook = await import("~/routes/api/stripe-webhook");
    for (const body of ["", "{", "\u0000\u0001", JSON.stringify({ type: "payment_intent.succeeded" })]) {
      const result = await callRoute(
        webhook.action,
        new Request("http://shop.test/api/stripe/webhook", { method: "POST", body }),
      );
      expect(result.status).toBe(400);
    }
  });

  it("the browser's return and the webhook racing in two processes make one order each", async () => {
    const jobs = [];
    const emails: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { response, email } = await paidCheckout();
      emails.push(email);
      const intent = fake.stripe.succeed(
        [...fake.stripe.intents.values()].find(
          (x) => x.client_secret === (response.data as { clientSecret: string }).clientSecret,
        )!.id,
      );
      // What the browser's return hands recordPayment: the intent as the provider reads it back.
      const { paymentProvider } = await import("~/server/payments/index.server");
      const state = await paymentProvider().retrieveIntent(intent.id);
      jobs.push({ intent: state, ...signedEvent(intent) });
    }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "race-")), "jobs.json");
    fs.writeFileSync(file, JSON.stringify(jobs));
    const run = (mode: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn("npx", ["tsx", "tests/helpers/race-worker.ts", mode, file], {
          env: process.env,
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.on("exit", (code) =>
          code === 0 ? resolve(out) : reject(new Error(`${mode} worker exited ${code}`)),
        );
      });
    const [webhookOut, returnOut] = await Promise.all([run("webhook"), run("return")]);
    expect(JSON.parse(webhookOut)).toEqual(jobs.map(() => "200"));
    const made = db().select().from(orders).where(inArray(orders.customerEmail, emails)).all();
    expect(made).toHaveLength(6);
    expect(new Set(made.map((o) => o.checkoutId)).size).toBe(6);
    expect((JSON.parse(returnOut) as string[]).sort()).toEqual(made.map((o) => o.orderNumber).sort());
    const paid = db()
      .select()
      .from(checkouts)
      .where(
        inArray(
          checkouts.id,
          made.map((o) => o.checkoutId),
        ),
      )
      .all();
    expect(paid.every((c) => c.status === "paid")).toBe(true);
  });
});

describe("payments that do not pay for their checkout", () => {
  async function succeededIntent(change: (intent: { amount: number; currency: string }) => void) {
    const { response, cookie, email } = await paidCheckout();
    const intent = [...fake.stripe.intents.values()].find(
      (i) => i.client_secret === (response.data as { clientSecret: string }).clientSecret,
    )!;
    // What Stripe would report for an intent changed at Stripe (dashboard, API) before it was paid.
    change(intent);
    return { intent: fake.stripe.succeed(intent.id), cookie, email };
  }

  it.each([
    ["in another currency", (intent: { currency: string }) => (intent.currency = "usd")],
    ["for another amount", (intent: { amount: number }) => (intent.amount = 100)],
  ])(
    "a succeeded payment %s makes no order, by the webhook (200, logged) or the browser's return",
    async (_label, change) => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      try {
        const { intent, cookie, email } = await succeededIntent(change);
        const hook = await postWebhook(signedEvent(intent));
        expect(hook).toMatchObject({ status: 200, data: { received: true, refused: true } });
        const back = await import("~/routes/checkout/payment-return");
        const returned = await callRoute(
          back.loader,
          new Request(`http://shop.test/payment/return?payment_intent=${intent.id}`, {
            headers: { Cookie: cookie },
          }),
        );
        expect(returned.location).toBe("/payment");
        expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);
        const logged = errors.mock.calls.map((call) => String(call[0]));
        expect(logged.filter((line) => line.includes(intent.id))).toHaveLength(2);
      } finally {
        errors.mockRestore();
      }
    },
  );

  it("a second succeeded payment for a checkout that already has its order is reported with the payment and the order number, not dropped", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { intent, email } = await succeededIntent(() => undefined);
      expect((await postWebhook(signedEvent(intent))).status).toBe(200);
      const [order] = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
      expect(order).toBeDefined();
      // The customer paid again for the same checkout (e.g. a second tab): Stripe reports it too.
      const second = { ...intent, id: `pi_second_${Math.random().toString(36).slice(2, 10)}` };
      fake.stripe.intents.set(second.id, second);
      expect((await postWebhook(signedEvent(second))).status).toBe(200);
      expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(1);
      const reported = errors.mock.calls
        .map((call) => String(call[0]))
        .filter((line) => line.includes(second.id));
      expect(reported).toHaveLength(1);
      expect(reported[0]).toContain(order!.orderNumber);
      // Reported, not refunded: the admin decides.
      expect(fake.stripe.requests.some((r) => r.path.includes("refund"))).toBe(false);
    } finally {
      errors.mockRestore();
    }
  });
});

describe("reconciliation with Stripe at start-up", () => {
  it("makes the order of a payment that succeeded at Stripe while the shop never heard of it, once", async () => {
    const { response, email } = await paidCheckout();
    const clientSecret = (response.data as { clientSecret: string }).clientSecret;
    // No return to the shop, no webhook: only Stripe knows the payment succeeded.
    fake.stripe.succeed(
      [...fake.stripe.intents.values()].find((intent) => intent.client_secret === clientSecret)!.id,
    );
    const { recoverUnrecordedPayments } = await import("~/server/checkout/payment-recovery.server");
    expect(await recoverUnrecordedPayments()).toBeGreaterThanOrEqual(1);
    await recoverUnrecordedPayments();
    const made = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
    expect(made).toHaveLength(1);
    expect(made[0]!.totalAmount).toBe(7500);
    expect(fake.stripe.requests.some((r) => r.method === "GET" && r.path === "/v1/payment_intents")).toBe(
      true,
    );
  });
});
