import Stripe from "stripe";
import { env } from "../core/env.server";
import type { PaymentIntentState, PaymentProvider } from "./types";

let client: Stripe | undefined;

/** The Stripe SDK; STRIPE_API_URL points it at a local server that speaks Stripe's API (tests). */
export function stripeClient(): Stripe {
  const { STRIPE_SECRET_KEY, STRIPE_API_URL } = env();
  if (!STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
  if (!client) {
    const api = STRIPE_API_URL ? new URL(STRIPE_API_URL) : null;
    client = new Stripe(STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api
        ? {
            host: api.hostname,
            port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
            protocol: api.protocol.replace(":", "") as "http" | "https",
          }
        : {}),
    });
  }
  return client;
}

function toState(intent: Stripe.PaymentIntent): PaymentIntentState {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    checkoutId: intent.metadata?.checkoutId ?? null,
    clientSecret: intent.client_secret,
  };
}

export const stripeProvider: PaymentProvider = {
  mode: "stripe",

  async createIntent({ checkoutId, amount, email }) {
    // JPY is a zero-decimal currency: the amount is whole yen.
    const intent = await stripeClient().paymentIntents.create(
      {
        amount,
        currency: "jpy",
        automatic_payment_methods: { enabled: true },
        receipt_email: email,
        metadata: { checkoutId },
      },
      { idempotencyKey: `checkout-${checkoutId}-${amount}` },
    );
    return toState(intent);
  },

  async retrieveIntent(id) {
    try {
      return toState(await stripeClient().paymentIntents.retrieve(id));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  },

  async updateAmount(id, amount) {
    return toState(await stripeClient().paymentIntents.update(id, { amount }));
  },

  async succeededSince(since) {
    const succeeded: PaymentIntentState[] = [];
    // Auto-pagination: a busy week can hold more than one page of intents.
    for await (const intent of stripeClient().paymentIntents.list({
      created: { gte: Math.floor(since.getTime() / 1000) },
      limit: 100,
    })) {
      if (intent.status === "succeeded") succeeded.push(toState(intent));
    }
    return succeeded;
  },
};
