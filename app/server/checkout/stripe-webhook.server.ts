import type Stripe from "stripe";
import { db } from "../db/client.server";
import { processedEvents } from "../db/schema";
import { env } from "../core/env.server";
import { loadStripe } from "../core/lazy-modules.server";
import { recordPayment } from "../orders/record-payment.server";
import { expireOrderPayment } from "../orders/konbini.server";
import { chargeRefundsState, intentState, refundState } from "../payments/stripe-provider.server";
import { recordChargeRefunds, recordProviderRefund } from "../refunds/provider-refunds.server";
import { eq } from "drizzle-orm";

/** Stripe's own default: a signature older than 5 minutes is a replay. */
const TOLERANCE_SECONDS = 300;

export type WebhookOutcome = {
  status: 200 | 400 | 404;
  body: { received: boolean; duplicate?: boolean; refused?: boolean; error?: string };
};

/**
 * Checks the signature over the raw body, ignores an event id seen before, and records the
 * payment events (once, however often they arrive): payment_intent.succeeded makes the order or
 * marks a waiting konbini order paid, requires_action with a konbini voucher makes the waiting
 * order, canceled or payment_failed ends a waiting konbini order as 期限切れ; the refund events
 * (refund.*, charge.refund.updated, charge.refunded) record a refund's progress when its money
 * fits its order. A payment that does not pay for its checkout (another currency or amount, no
 * checkout, a second payment), or a refund that does not fit its order (more than is left,
 * another currency), changes no order: it is written in the ledger of stray payments and
 * answered 200, since Stripe retrying it would change nothing.
 */
export async function handleStripeWebhook(
  rawBody: string,
  signature: string | null,
): Promise<WebhookOutcome> {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  // Without a signing secret there is no webhook: the shop takes no unsigned events.
  if (!secret) return { status: 404, body: { received: false, error: "webhook not configured" } };
  const { webhooks } = await loadStripe();
  let event: Stripe.Event;
  try {
    event = webhooks.constructEvent(rawBody, signature ?? "", secret, TOLERANCE_SECONDS);
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
  switch (event.type) {
    case "payment_intent.succeeded":
      refused = !recordPayment(intentState(event.data.object)).ok;
      break;
    case "payment_intent.requires_action": {
      // A konbini voucher was made: the order waits as 入金待ち (unless the browser's return made it).
      const intent = intentState(event.data.object);
      if (intent.konbini) refused = !recordPayment(intent).ok;
      break;
    }
    case "payment_intent.canceled":
    case "payment_intent.payment_failed":
      // A konbini voucher that expired unpaid. A card decline has no order and changes nothing.
      expireOrderPayment(event.data.object.id);
      break;
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated":
      // A refund's progress (a konbini refund ends when the customer's bank transfer is made),
      // or one made at Stripe's dashboard, written down so the order's totals stay true. Its
      // amount and currency are checked first: one that does not fit goes to the ledger.
      recordProviderRefund(refundState(event.data.object));
      break;
    case "charge.refunded":
      // The same, as the charge reports it (the refunds it lists, its total refunded): an
      // endpoint set up with this event instead of the refund.* ones is checked the same way.
      recordChargeRefunds(chargeRefundsState(event.data.object));
      break;
  }
  // Recorded only once handled: an event that failed half-way is retried by Stripe.
  db().insert(processedEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().run();
  return { status: 200, body: refused ? { received: true, refused: true } : { received: true } };
}
