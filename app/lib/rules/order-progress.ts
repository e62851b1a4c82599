import type { OrderStatus, PaymentStatus } from "./order-statuses";
import { ORDER_TABS } from "./order-tabs";

/**
 * Where an order stands, in the customer's words: 入金待ち (a konbini voucher not yet paid) →
 * 制作中 (paid, videos being made) → 納品済み (the download page was mailed), or 期限切れ
 * (the voucher expired unpaid; nothing is made), or 返金済み (paid, then refunded whole: nothing
 * is made, and nothing delivered may be fetched any more, whatever the order's own status says;
 * an order closed as 対応済み after its whole refund is not 納品済み).
 */
export type OrderProgress = "入金待ち" | "制作中" | "納品済み" | "期限切れ" | "返金済み";

export function orderProgress(
  order: { paymentStatus: PaymentStatus; status: OrderStatus },
  /** What the order comes to after its refunds (lib/rules/refunds.ts), when it has any. */
  net?: number,
): OrderProgress {
  if (order.paymentStatus === "awaiting") return "入金待ち";
  if (order.paymentStatus === "expired") return "期限切れ";
  if (net !== undefined && net <= 0) return "返金済み";
  return (ORDER_TABS.handled as readonly OrderStatus[]).includes(order.status) ? "納品済み" : "制作中";
}
