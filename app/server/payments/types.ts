/** What the shop needs from a card payment provider, whichever it is. */
export type PaymentIntentState = {
  id: string;
  /** Stripe's status names; only "succeeded" makes an order. */
  status: string;
  amount: number;
  currency: string;
  checkoutId: string | null;
  clientSecret: string | null;
};

export interface PaymentProvider {
  readonly mode: "stripe" | "test";
  createIntent(input: { checkoutId: string; amount: number; email: string }): Promise<PaymentIntentState>;
  retrieveIntent(id: string): Promise<PaymentIntentState | null>;
  /** Lowers an unpaid intent's amount or raises it, when the order changed before paying. */
  updateAmount(id: string, amount: number): Promise<PaymentIntentState>;
  /** Payments that succeeded since a moment: the shop reconciles them with its orders at start-up. */
  succeededSince(since: Date): Promise<PaymentIntentState[]>;
}
