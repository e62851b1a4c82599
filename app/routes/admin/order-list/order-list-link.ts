import type { OrderTab } from "~/lib/rules/order-tabs";

/** Where the admin stands in the order list: what its links and forms keep when one thing changes. */
export type OrderListPlace = {
  tab: OrderTab;
  contestParam: string;
  q: string;
  page: number;
  /** 返金あり: only orders with a refund. */
  refund: boolean;
};

/**
 * The element a post comes back to (`#line-12`, `#order-34`): the line or the order its button
 * acted on, brought to the top of the screen with its toast, which sits in the bottom corner and
 * so covers none of it. An order that left the tab has no element: the list opens at its top.
 */
export const lineAnchor = (lineId: number) => `line-${lineId}`;
export const orderAnchor = (orderId: number) => `order-${orderId}`;
export function postAnchor(about: { orderId: number; lineId: number | null }): string {
  return about.lineId === null ? orderAnchor(about.orderId) : lineAnchor(about.lineId);
}

/**
 * The list's query string with some of it changed (another tab, the next page) and the rest kept,
 * so a button's post comes back to the same tab, contest, search, 返金あり and page.
 */
export function orderListHref(place: OrderListPlace, changes: Record<string, string> = {}): string {
  return `?${new URLSearchParams({
    tab: place.tab,
    ...(place.contestParam ? { contest: place.contestParam } : {}),
    ...(place.q ? { q: place.q } : {}),
    ...(place.refund ? { refund: "1" } : {}),
    page: String(place.page),
    ...changes,
  }).toString()}`;
}
