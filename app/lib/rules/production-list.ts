/**
 * The 制作リスト's words and query string, shared by its page, its CSV download and the links
 * that lead there (the order list's per-contest filter).
 */

/** A row (athlete × style) is 納品済み when every order line is, 一部納品 when some are. */
export const PRODUCTION_STATES = ["未納品", "一部納品", "納品済み"] as const;
export type ProductionState = (typeof PRODUCTION_STATES)[number];

/** The filter as the page's form sends it: `category` (a name, or 未分類) and `open=1` for 未納品のみ. */
export type ProductionFilter = { category: string | null; openOnly: boolean };

/** "?category=…&open=1" for a filter ("" when it is empty), so the page, the CSV and the print agree. */
export function productionQuery(filter: ProductionFilter): string {
  const params = new URLSearchParams();
  if (filter.category !== null) params.set("category", filter.category);
  if (filter.openOnly) params.set("open", "1");
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The filter in words, for the printed heading and the totals: "部門: A部門・未納品のみ". */
export function describeProductionFilter(filter: ProductionFilter): string {
  const parts = [filter.category === null ? "すべての部門" : `部門: ${filter.category}`];
  if (filter.openOnly) parts.push("未納品のみ");
  return parts.join("・");
}
