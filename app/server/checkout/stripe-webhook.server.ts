import Stripe from "stripe";
import { db } from "../db/client.server";
import { processedEvents } from "../db/schema";
import { env } from "../core/env.server";
import { createOrderForPayment } from "../orders/orders.server";
import { eq } from "drizzle-orm";

/** Stripe's own default: a signature older than 5 minutes is a replay. */
const TOLERANCE_SECONDS = 300;

export type WebhookOutcome = {
  status: 200 | 400 | 404;
  body: { received: boolean; duplicate?: boolean; refused?: boolean; error?: string };
};

/**
 * Checks the signature over the raw body, ignores an event id seen before, and turns
 * payment_intent.succeeded into its order (once, however often it arrives). A payment that
 * does not pay for its checkout (another currency or amount) makes no order: it is logged
 * for the admin and answered 200 like a duplicate, since Stripe retrying it would change nothing.
 */
export function handleStripeWebhook(rawBody: string, signature: string | null): WebhookOutcome {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  // Without a signing secret there is no webhook: the shop takes no unsigned events.
  if (!secret) return { status: 404, body: { received: false, error: "webhook not configured" } };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature ?? "", secret, TOLERANCE_SECONDS);
  } catch {
    return { status: 400, body: { received: false, error: "invalid signature" } };
  }
  if (
    db()
      .select({ id: processedEvents.id })
      .from(processedEvents)
      .where(eq(processedEvents.id, event.id))
      .get()
  ) {
    return { status: 200, body: { received: true, duplicate: true } };
  }
  let refused = false;
  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object;
    const made = createOrderForPayment({
      id: intent.id,
      status: intent.status,
      amount: intent.amount,
      currency: intent.currency,
      checkoutId: intent.metadata?.checkoutId ?? null,
      clientSecret: null,
    });
    refused = !made.ok;
  }
  // Recorded only once handled: an event that failed half-way is retried by Stripe.
  db().insert(processedEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().run();
  return { status: 200, body: refused ? { received: true, refused: true } : { received: true } };
}
