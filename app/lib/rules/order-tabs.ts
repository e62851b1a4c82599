import type { OrderStatus } from "./order-statuses";

/** The delivery statuses of a paid order: not yet delivered, and delivered or closed. */
export const ORDER_TABS = {
  pending: ["未対応", "completed"],
  handled: ["納品済み", "対応済み"],
} as const satisfies Record<string, OrderStatus[]>;

/**
 * The tabs of 動画注文一覧. 未対応 and 対応済み list paid orders by their delivery status;
 * 入金待ち lists the konbini orders whose money is not in (waiting, or expired unpaid), which
 * are neither made nor delivered.
 */
export const ORDER_LIST_TABS = { pending: "未対応", handled: "対応済み", awaiting: "入金待ち" } as const;
export type OrderTab = keyof typeof ORDER_LIST_TABS;

export function orderTab(value: string | null): OrderTab {
  return value === "handled" || value === "awaiting" ? value : "pending";
}

/** The order list's `contest` parameter for the orders whose contest was deleted (no id left). */
export const DELETED_CONTESTS = "deleted";
