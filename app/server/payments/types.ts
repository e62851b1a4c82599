import type { CarriedOrder, CarriedOrderReading } from "./order-metadata.server";
import type { PaymentMethod } from "~/lib/rules/payment-terms";

/**
 * The shop sells in yen only (Stripe names currencies in lower case): every order was paid in
 * it, and a refund of an order in another currency does not fit it.
 */
export const SHOP_CURRENCY = "jpy";

/** A konbini payment's voucher: the customer pays it at a store before it expires. */
export type KonbiniVoucher = {
  /** The number the customer gives at the store (10–11 digits); Stripe's first store's, the test provider's own. */
  confirmationNumber: string | null;
  expiresAt: Date;
  /** Stripe's hosted voucher page (every store's steps); the test provider has none. */
  hostedVoucherUrl: string | null;
};

/** What the shop needs from a payment provider, whichever it is. */
export type PaymentIntentState = {
  id: string;
  /** Stripe's status names; "succeeded" is paid, "requires_action" with a voucher waits for a store payment. */
  status: string;
  amount: number;
  currency: string;
  checkoutId: string | null;
  clientSecret: string | null;
  /** Set while a konbini voucher waits to be paid (Stripe's next_action.konbini_display_details). */
  konbini: KonbiniVoucher | null;
  /**
   * The order the payment carries in its metadata (server/payments/order-metadata.server.ts), or null with
   * why not: what makes its order again when the database lost it (payments-after-snapshot).
   */
  carriedOrder: CarriedOrderReading;
};

/**
 * A refund as the provider reports it, mapped onto the shop's states: `processing` covers
 * Stripe's pending and requires_action (a konbini refund waits for the customer's bank account),
 * `failed` its failed and canceled.
 */
export type ProviderRefund = {
  id: string;
  status: "processing" | "succeeded" | "failed";
  amount: number;
  currency: string;
  paymentIntentId: string | null;
  /** How the payment was made, which decides how its refund reaches the customer. */
  method: PaymentMethod;
  /** The shop's `refunds.id`, carried in the provider's metadata; null for one made at its dashboard. */
  shopRefundId: number | null;
  failureReason: string | null;
};

/**
 * A charge.refunded report: the charge's refunds as far as the report lists them (webhook
 * endpoints on Stripe API versions before 2022-11-15 list them; later ones list none and send
 * each refund as its own refund.* event), and the charge's total refunded, which is all that
 * can be checked of the refunds it does not list.
 */
export type ProviderChargeRefunds = {
  chargeId: string;
  paymentIntentId: string | null;
  /** Everything refunded of the charge so far, in `currency`'s smallest unit. */
  amountRefunded: number;
  currency: string;
  refunds: ProviderRefund[];
  /** Whether `refunds` is every refund of the charge (the list has no more pages). */
  listsEveryRefund: boolean;
};

export interface PaymentProvider {
  readonly mode: "stripe" | "test";
  /**
   * `replaces`: the ended intent this one follows, so a retried creation is not answered with it.
   * `order`: what the order needs, carried in the intent's metadata (preparePayment always gives
   * it; an intent made without it, as before, is one whose order cannot be made again from it).
   */
  createIntent(input: {
    checkoutId: string;
    amount: number;
    email: string;
    replaces?: string;
    order?: CarriedOrder;
  }): Promise<PaymentIntentState>;
  retrieveIntent(id: string): Promise<PaymentIntentState | null>;
  /**
   * Lowers an unpaid intent's amount or raises it, when the order changed before paying, and
   * replaces the order it carries with `carried` (the lines change with the amount, or alone).
   */
  updateAmount(
    id: string,
    amount: number,
    carried?: { checkoutId: string; order: CarriedOrder },
  ): Promise<PaymentIntentState>;
  /**
   * Ends an unpaid intent (a konbini voucher past its deadline), so it can never be paid later.
   * Answers the intent as it stands afterwards: a payment that won the race is "succeeded".
   */
  cancelIntent(id: string): Promise<PaymentIntentState | null>;
  /** Payments that succeeded since a moment: the shop reconciles them with its orders at start-up. */
  succeededSince(since: Date): Promise<PaymentIntentState[]>;
  /**
   * How much of a payment was given back (refunds not failed or canceled, processing included):
   * a payment refunded after a snapshot is still "succeeded", and must not become an order again.
   */
  refundedAmount(paymentIntentId: string): Promise<number>;
  /**
   * Gives back `amount` of a succeeded payment, once per refund row however often it is asked
   * (the provider's idempotency key, refundIdempotencyKey: the row's id and its `requestKey`, so
   * an id reused after a restore is another refund). A card refund goes back to the card; konbini has no native
   * refund, so the provider mails `customerEmail` to ask for a bank account (Stripe's
   * instructions_email) and the refund stays processing until it is paid.
   */
  createRefund(input: {
    paymentIntentId: string;
    amount: number;
    shopRefundId: number;
    /** The row's request key: with its id, what makes the provider's idempotency key. */
    requestKey: string;
    customerEmail: string | null;
  }): Promise<ProviderRefund>;
}

/** Stripe's konbini product description may hold at most 22 characters. */
export const KONBINI_PRODUCT_DESCRIPTION = "コンテスト動画";
