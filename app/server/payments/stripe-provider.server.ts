import type Stripe from "stripe";
import { orderMetadata, orderMetadataUpdate, readOrderMetadata } from "./order-metadata.server";
import type { PaymentMethod } from "~/lib/rules/payment-terms";
import { env } from "../core/env.server";
import { loadStripe } from "../core/lazy-modules.server";
import { refundIdempotencyKey } from "./refund-idempotency.server";
import {
  KONBINI_PRODUCT_DESCRIPTION,
  type KonbiniVoucher,
  type PaymentIntentState,
  type PaymentProvider,
  type ProviderChargeRefunds,
  type ProviderRefund,
} from "./types";

let client: Stripe | undefined;

/** The Stripe SDK; STRIPE_API_URL points it at a local server that speaks Stripe's API (tests). */
export async function stripeClient(): Promise<Stripe> {
  const { STRIPE_SECRET_KEY, STRIPE_API_URL } = env();
  if (!STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
  if (!client) {
    const api = STRIPE_API_URL ? new URL(STRIPE_API_URL) : null;
    const StripeSdk = await loadStripe();
    client ??= new StripeSdk(STRIPE_SECRET_KEY, {
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

/** The voucher of a konbini intent waiting for its store payment, or null. */
function konbiniVoucher(intent: Stripe.PaymentIntent): KonbiniVoucher | null {
  const details = intent.status === "requires_action" ? intent.next_action?.konbini_display_details : null;
  if (!details) return null;
  const stores = Object.values(details.stores ?? {}) as ({ confirmation_number: string | null } | null)[];
  return {
    confirmationNumber: stores.find((store) => store?.confirmation_number)?.confirmation_number ?? null,
    expiresAt: new Date(details.expires_at * 1000),
    hostedVoucherUrl: details.hosted_voucher_url ?? null,
  };
}

/** An intent as the shop reads it, from the API or from a webhook event's payload. */
export function intentState(intent: Stripe.PaymentIntent): PaymentIntentState {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    checkoutId: intent.metadata?.checkoutId ?? null,
    clientSecret: intent.client_secret,
    konbini: konbiniVoucher(intent),
    carriedOrder: readOrderMetadata(intent.metadata),
  };
}

/** A refund as the shop reads it, from the API or from a refund webhook event's payload. */
export function refundState(refund: Stripe.Refund, method?: PaymentMethod): ProviderRefund {
  const shopRefundId = Number(refund.metadata?.shopRefundId);
  return {
    id: refund.id,
    status:
      refund.status === "succeeded"
        ? "succeeded"
        : refund.status === "failed" || refund.status === "canceled"
          ? "failed"
          : "processing",
    amount: refund.amount,
    currency: refund.currency,
    paymentIntentId:
      typeof refund.payment_intent === "string" ? refund.payment_intent : (refund.payment_intent?.id ?? null),
    // A refund with instructions_email is konbini's (no other method of the shop's has one).
    method: method ?? (refund.instructions_email ? "konbini" : "card"),
    shopRefundId: Number.isSafeInteger(shopRefundId) && shopRefundId > 0 ? shopRefundId : null,
    failureReason: refund.failure_reason ?? null,
  };
}

/** A charge.refunded event's charge as the shop reads it: its listed refunds and its total refunded. */
export function chargeRefundsState(charge: Stripe.Charge): ProviderChargeRefunds {
  const method: PaymentMethod = charge.payment_method_details?.type === "konbini" ? "konbini" : "card";
  const listed = charge.refunds?.data ?? [];
  return {
    chargeId: charge.id,
    paymentIntentId:
      typeof charge.payment_intent === "string" ? charge.payment_intent : (charge.payment_intent?.id ?? null),
    amountRefunded: charge.amount_refunded,
    currency: charge.currency,
    refunds: listed.map((refund) => refundState(refund, method)),
    listsEveryRefund: charge.refunds ? !charge.refunds.has_more : false,
  };
}

/** How a succeeded intent was paid: its charge's payment method (Stripe keeps it on the charge). */
async function paidMethod(paymentIntentId: string): Promise<PaymentMethod> {
  const intent = await (
    await stripeClient()
  ).paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] });
  const charge = intent.latest_charge;
  return typeof charge === "object" && charge?.payment_method_details?.type === "konbini"
    ? "konbini"
    : "card";
}

/** Whether Stripe refused the request itself (its errors come from the SDK, loaded by then). */
async function isInvalidRequest(error: unknown) {
  return error instanceof (await loadStripe()).errors.StripeInvalidRequestError;
}

async function isMissing(error: unknown) {
  const { errors } = await loadStripe();
  return error instanceof errors.StripeInvalidRequestError && error.statusCode === 404;
}

export const stripeProvider: PaymentProvider = {
  mode: "stripe",

  async createIntent({ checkoutId, amount, email, replaces, order }) {
    const metadata = order ? orderMetadata(checkoutId, order) : { checkoutId };
    // JPY is a zero-decimal currency: the amount is whole yen. Of card and konbini (the two the
    // shop's order flow knows), those PAYMENT_METHODS enables, as the payment page and legal texts say;
    // a konbini order waits as 入金待ち until Stripe reports the payment.
    const intent = await (
      await stripeClient()
    ).paymentIntents.create(
      {
        amount,
        currency: "jpy",
        allowed_payment_method_types: [...env().PAYMENT_METHODS],
        payment_method_options: env().PAYMENT_METHODS.includes("konbini")
          ? {
              konbini: {
                expires_after_days: env().KONBINI_EXPIRES_AFTER_DAYS,
                product_description: KONBINI_PRODUCT_DESCRIPTION,
              },
            }
          : {},
        receipt_email: email,
        metadata,
      },
      // Per checkout, amount and order carried, so a retried request never makes a second intent
      // (Stripe refuses a key again with other metadata: same total, other lines); after an ended
      // one, per the intent it replaces too (Stripe would answer the same key with the ended one).
      {
        idempotencyKey: `checkout-${checkoutId}-${amount}${metadata.order_check ? `-${metadata.order_check}` : ""}${replaces ? `-after-${replaces}` : ""}`,
      },
    );
    return intentState(intent);
  },

  async retrieveIntent(id) {
    try {
      return intentState(await (await stripeClient()).paymentIntents.retrieve(id));
    } catch (error) {
      if (await isMissing(error)) return null;
      throw error;
    }
  },

  async updateAmount(id, amount, carried) {
    // Every key of the order's format is sent, "" for those no longer used (Stripe removes them).
    const metadata = carried ? orderMetadataUpdate(carried.checkoutId, carried.order) : undefined;
    return intentState(
      await (await stripeClient()).paymentIntents.update(id, { amount, ...(metadata ? { metadata } : {}) }),
    );
  },

  async cancelIntent(id) {
    try {
      return intentState(await (await stripeClient()).paymentIntents.cancel(id));
    } catch (error) {
      if (await isMissing(error)) return null;
      // Stripe refuses to cancel an intent that is already final (succeeded or canceled): read it.
      if (await isInvalidRequest(error)) return this.retrieveIntent(id);
      throw error;
    }
  },

  async succeededSince(since) {
    const succeeded: PaymentIntentState[] = [];
    // Auto-pagination: a busy week can hold more than one page of intents.
    for await (const intent of (await stripeClient()).paymentIntents.list({
      created: { gte: Math.floor(since.getTime() / 1000) },
      limit: 100,
    })) {
      if (intent.status === "succeeded") succeeded.push(intentState(intent));
    }
    return succeeded;
  },

  async refundedAmount(paymentIntentId) {
    let refunded = 0;
    // Auto-pagination: a payment can have been refunded in many parts.
    for await (const refund of (await stripeClient()).refunds.list({
      payment_intent: paymentIntentId,
      limit: 100,
    })) {
      if (refund.status !== "failed" && refund.status !== "canceled") refunded += refund.amount;
    }
    return refunded;
  },

  async createRefund({ paymentIntentId, amount, shopRefundId, requestKey, customerEmail }) {
    const method = await paidMethod(paymentIntentId);
    const refund = await (
      await stripeClient()
    ).refunds.create(
      {
        payment_intent: paymentIntentId,
        amount,
        metadata: { shopRefundId: String(shopRefundId) },
        // Konbini has no way back to the payer: Stripe mails this address to ask for a bank account.
        ...(method === "konbini" && customerEmail ? { instructions_email: customerEmail } : {}),
      },
      // One refund per row of the shop's refunds, however often the shop retries asking (and
      // not an earlier row's of the same id, after a restore).
      { idempotencyKey: refundIdempotencyKey(shopRefundId, requestKey) },
    );
    return refundState(refund, method);
  },
};
