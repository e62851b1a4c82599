import Stripe from "stripe";
import { callRoute } from "./route";

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
