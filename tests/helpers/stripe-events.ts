import Stripe from "stripe";
import { afterAll, beforeAll } from "vitest";
import { startFakeStripe } from "./fake-stripe";
import { callRoute } from "./route";
import { startSmtpServer } from "./smtp";

/** The signing secret the Stripe test files configure (STRIPE_WEBHOOK_SECRET). */
export const WEBHOOK_SECRET = "whsec_test_secret_for_the_shop";

/** A Stripe event about a PaymentIntent, signed as Stripe signs it (payment_intent.succeeded unless told). */
export function signedEvent(
  intent: object,
  options: { id?: string; type?: string; timestamp?: number; secret?: string } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type: options.type ?? "payment_intent.succeeded",
    api_version: "2024-06-20",
    created: Math.floor(Date.now() / 1000),
    data: { object: intent },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { payload, signature };
}

/** Posts an event to the shop's webhook route, as Stripe does. */
export async function postWebhook(event: { payload: string; signature: string }) {
  const webhook = await import("~/routes/api/stripe-webhook");
  return callRoute(
    webhook.action,
    new Request("http://shop.test/api/stripe/webhook", {
      method: "POST",
      body: event.payload,
      headers: { "Stripe-Signature": event.signature },
    }),
  );
}

/**
 * A test file's shop with Stripe configured: a real SMTP server and the local Stripe-speaking
 * server, started before the file's tests and stopped after. `env` adds configuration.
 */
export function withStripeShop(env: Record<string, string> = {}) {
  const parts = {} as {
    smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  };
  beforeAll(async () => {
    parts.smtp = await startSmtpServer();
    parts.stripe = await startFakeStripe();
    Object.assign(process.env, {
      SMTP_URL: parts.smtp.url,
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_shop",
      STRIPE_PUBLISHABLE_KEY: "pk_test_shop",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: parts.stripe.url,
      ...env,
    });
  });
  afterAll(async () => {
    await parts.smtp.close();
    await parts.stripe.close();
  });
  return parts;
}
