import crypto from "node:crypto";

/**
 * The provider's idempotency key for one of the shop's refunds. The row's id alone is not
 * unique over time: after a restore, refund ids restart from the snapshot's highest, and Stripe
 * answers a key it saw in the last 24 hours with that earlier refund (another payment's). The
 * row's request key (the form's one-time key, or the provider's refund id) is unique per refund
 * asked for, and the same for every retry of the same row, so a retry stays the same refund.
 * Hashed: a request key is any text, Stripe's keys are at most 255 characters.
 */
export function refundIdempotencyKey(shopRefundId: number, requestKey: string): string {
  const digest = crypto.createHash("sha256").update(requestKey).digest("hex").slice(0, 24);
  return `shop-refund-${shopRefundId}-${digest}`;
}
