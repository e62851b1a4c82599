import { pageNumber } from "~/lib/rules/params";
import { UNCATEGORISED } from "~/lib/schemas/athlete-schemas";
import type { AthleteView } from "~/server/catalog/athletes.server";

/** Where the 選手管理 list stands: its view, page, search and category filter, as its address says. */
export type AthleteListAddress = { view: AthleteView; page: number; q: string; categoryParam: string };

/** The active list's first page, unfiltered: where 選手追加 leads, to the athletes it added. */
export const FIRST_PAGE: AthleteListAddress = { view: "active", page: 1, q: "", categoryParam: "" };

/**
 * The list's own query keys; everything else in a URL (index, purge, select) is dropped when
 * returning to it. `category` is the filter as the list's query reads it: null for every
 * category, "" for 未分類.
 */
export function listQuery(search: URLSearchParams) {
  const view: AthleteView = search.get("view") === "deleted" ? "deleted" : "active";
  const page = pageNumber(search.get("page"), 100_000);
  const q = (search.get("q") ?? "").trim().slice(0, 100);
  const categoryParam = (search.get("category") ?? "").trim().slice(0, 100);
  return {
    view,
    page,
    q,
    categoryParam,
    category: categoryParam === "" ? null : categoryParam === UNCATEGORISED ? "" : categoryParam,
  };
}

/** The list's address, with `overrides` set (or, when empty, removed): a page, a purge, a selection. */
export function listUrl(
  contestId: number,
  query: AthleteListAddress,
  overrides: Record<string, string> = {},
) {
  const params = new URLSearchParams();
  if (query.view === "deleted") params.set("view", "deleted");
  if (query.q) params.set("q", query.q);
  if (query.categoryParam) params.set("category", query.categoryParam);
  if (query.page > 1) params.set("page", String(query.page));
  for (const [key, value] of Object.entries(overrides)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const search = params.toString();
  return `/admin/contest/${contestId}${search ? `?${search}` : ""}`;
}
