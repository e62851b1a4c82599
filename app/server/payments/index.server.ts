import { env } from "../core/env.server";
import { stripeProvider } from "./stripe-provider.server";
import { testProvider } from "./test-provider.server";
import type { PaymentProvider } from "./types";

/** Stripe when a key is configured, otherwise the built-in test provider. */
export function paymentProvider(): PaymentProvider {
  return env().STRIPE_SECRET_KEY ? stripeProvider : testProvider;
}

export { testProvider };
export type { PaymentIntentState, PaymentProvider } from "./types";
