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
