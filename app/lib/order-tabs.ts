import type { OrderStatus } from "~/server/db/schema";

/** The two tabs of 動画注文一覧 and the statuses each lists. */
export const ORDER_TABS = {
  pending: ["未対応", "completed"],
  handled: ["納品済み", "対応済み"],
} as const satisfies Record<string, OrderStatus[]>;
export type OrderTab = keyof typeof ORDER_TABS;

/** The order list's `contest` parameter for the orders whose contest was deleted (no id left). */
export const DELETED_CONTESTS = "deleted";
