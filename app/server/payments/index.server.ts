import { env } from "../core/env.server";
import { stripeProvider } from "./stripe-provider.server";
import { testProvider } from "./test-provider.server";
import type { PaymentProvider } from "./types";

/** The provider configuration decided (PAYMENT_PROVIDER, see env.server.ts). */
export function paymentProvider(): PaymentProvider {
  return env().PAYMENT_PROVIDER === "stripe" ? stripeProvider : testProvider;
}

/** Said at start-up, so whoever runs the shop sees whether real money moves. */
export function paymentProviderNotice(provider: "stripe" | "test" = env().PAYMENT_PROVIDER): string {
  return provider === "stripe"
    ? "決済: Stripe"
    : "決済: テストモード（PAYMENT_PROVIDER=test）。お金は動かず、お客様の支払い画面にもテストモードと表示されます。本番の販売には Stripe のキーを設定してください";
}

export { testProvider };
export type { PaymentIntentState, PaymentProvider } from "./types";
