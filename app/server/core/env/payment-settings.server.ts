import { z } from "zod";
import { PAYMENT_METHODS } from "~/lib/rules/payment-terms";
import { integerBetween, optionalText, url } from "./values.server";

const METHODS_MESSAGE =
  "card と konbini のどちらか、または両方をカンマ区切りで指定してください（例: card,konbini）";

/**
 * The payment methods the shop offers, as a comma list (`card,konbini`); unset, both. Kept in
 * the shop's own order whatever the list's, so every text names them alike.
 */
const paymentMethods = optionalText
  .transform((value) =>
    (value ?? PAYMENT_METHODS.join(","))
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  )
  .refine(
    (names) =>
      names.length > 0 && names.every((name) => (PAYMENT_METHODS as readonly string[]).includes(name)),
    METHODS_MESSAGE,
  )
  .transform((names) => PAYMENT_METHODS.filter((method) => names.includes(method)));

/** Who takes the payments, and how long a konbini voucher stays payable. */
export const paymentSettings = z.object({
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: optionalText.pipe(url("URL の形式が正しくありません").optional()),
  /**
   * Who takes the payments: `stripe`, or `test` (the built-in テストモード: a test card number and
   * a konbini stand-in, no money moves). Unset: Stripe when its key is set; otherwise production
   * refuses to start, so a shop whose keys went missing never takes pretend payments.
   */
  PAYMENT_PROVIDER: optionalText.pipe(
    z.enum(["stripe", "test"], { message: "stripe か test を指定してください" }).optional(),
  ),
  /** Days a konbini voucher stays payable (Stripe's expires_after_days, 1–60). */
  KONBINI_EXPIRES_AFTER_DAYS: integerBetween(1, 60).default(3),
  /** What `/payment` offers, and so what the legal texts name (card, konbini: both by default). */
  PAYMENT_METHODS: paymentMethods,
});

/** Always decided: the configured provider, or Stripe when its key is set, else (outside production) test. */
export function paymentProvider(
  configured: "stripe" | "test" | undefined,
  stripeSecretKey: string | undefined,
): "stripe" | "test" {
  return configured ?? (stripeSecretKey ? "stripe" : "test");
}
