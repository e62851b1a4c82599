/**
 * An order's two statuses, in lib because the browser-side rules (the progress shown to the customer,
 * the admin's tabs) read them as well as the schema; the schema stores them with these values.
 */
export const ORDER_STATUSES = ["未対応", "completed", "納品済み", "対応済み"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Whether an order's money is in. A card order is paid when it is made; a konbini order waits
 * (入金待ち) until the store payment is reported, or ends unpaid (期限切れ) when its voucher expires.
 * Only paid orders are made, delivered or counted in sales.
 */
export const PAYMENT_STATUSES = ["paid", "awaiting", "expired"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
