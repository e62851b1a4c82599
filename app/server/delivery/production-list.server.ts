import { and, asc, count, eq, inArray, min, sql, type SQL } from "drizzle-orm";
import { UNCATEGORISED } from "~/lib/schemas/athlete-schemas";
import { formatDateTime } from "~/lib/rules/format";
import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import type { ProductionFilter, ProductionState } from "~/lib/rules/production-list";
import { contestCategoryNames } from "../catalog/athletes.server";
import { db } from "../db/client.server";
import { athletes, orderLines, orders, type OrderStatus } from "../db/schema";

/**
 * The 制作リスト: which videos the editors must make for a contest. One row per athlete ×
 * style with at least one order line (orders exist only once paid), so two families who
 * ordered the same performance ask for one video.
 */
export type ProductionRow = {
  /** Null when the athlete was deleted for good: the row then stands on the lines' own copies. */
  athleteId: number | null;
  athleteNumber: number;
  athleteName: string;
  /** The category name as shown: 未分類 for none. */
  category: string;
  style: string;
  orientation: Orientation;
  lineCount: number;
  deliveredCount: number;
  firstOrderedAt: Date;
  state: ProductionState;
  /** The athlete's video is 受注停止: the video may not be wanted any more. */
  stopped: boolean;
  /** A line is marked お断り in the order list: the shop declined to make it. */
  declined: boolean;
};

/**
 * A line is done once the order list has delivered or closed it: it sets the lines' status
 * together with the order's, so the lines alone tell the state (whatever carried the video).
 */
const DONE_STATUSES: OrderStatus[] = ["納品済み", "対応済み"];

/** The athlete's current values where the athlete still exists, else the line's copies from the order. */
const athleteNumber = sql<number>`coalesce(${athletes.athleteNumber}, ${orderLines.athleteNumber})`;
const athleteName = sql<string>`coalesce(${athletes.name}, ${orderLines.athleteName})`;
const category = sql<string>`coalesce(${athletes.category}, ${orderLines.category})`;
const doneLines = sql<number>`sum(case when ${inArray(orderLines.status, DONE_STATUSES)} then 1 else 0 end)`;
// Deleted athletes' lines share athlete_id null: these keep them apart by the copies on the line.
const orphanNumber = sql`case when ${orderLines.athleteId} is null then ${orderLines.athleteNumber} end`;
const orphanName = sql`case when ${orderLines.athleteId} is null then ${orderLines.athleteName} end`;

/**
 * The contest's rows, sorted by number (vertical before horizontal). One grouped query,
 * whatever the number of athletes: the filter's category and "not yet delivered" are part of it.
 */
export function productionList(
  contestId: number,
  options: { category?: string | null; openOnly?: boolean } = {},
): ProductionRow[] {
  // Only paid orders are made: a konbini order waiting for its payment is not on the list yet.
  const conditions: SQL[] = [eq(orders.contestId, contestId), eq(orders.paymentStatus, "paid")];
  if (options.category != null)
    conditions.push(sql`${category} = ${options.category === UNCATEGORISED ? "" : options.category}`);
  const rows = db()
    .select({
      athleteId: orderLines.athleteId,
      athleteNumber,
      athleteName,
      category: sql<string>`min(${category})`,
      style: sql<string>`min(${orderLines.style})`,
      orientation: orderLines.orientation,
      lineCount: count(),
      deliveredCount: doneLines.mapWith(Number),
      firstOrderedAt: min(orders.createdAt),
      stopped: sql<number>`max(coalesce(${athletes.videoStatus} = '受注停止', 0))`.mapWith(Number),
      declined: sql<number>`max(${orderLines.refused})`.mapWith(Number),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orderLines.orderId, orders.id))
    .leftJoin(athletes, eq(athletes.id, orderLines.athleteId))
    .where(and(...conditions))
    .groupBy(orderLines.athleteId, orphanNumber, orphanName, orderLines.orientation)
    .having(options.openOnly ? sql`${doneLines} < count(*)` : undefined)
    .orderBy(
      asc(athleteNumber),
      sql`case ${orderLines.orientation} when 'vertical' then 0 else 1 end`,
      asc(athleteName),
      asc(orderLines.athleteId),
    )
    .all();
  return rows.map((row) => ({
    ...row,
    category: row.category || UNCATEGORISED,
    firstOrderedAt: row.firstOrderedAt ?? new Date(0),
    state: row.deliveredCount === 0 ? "未納品" : row.deliveredCount < row.lineCount ? "一部納品" : "納品済み",
    stopped: row.stopped === 1,
    declined: row.declined === 1,
  }));
}

/** The categories the filter offers: the contest's own, then 未分類. */
export function productionCategories(contestId: number): string[] {
  return [...contestCategoryNames(contestId).filter((name) => name !== UNCATEGORISED), UNCATEGORISED];
}

/**
 * Reads the filter from the query string. A category the contest does not have is dropped
 * (and reported, so the page can say so) rather than showing an empty list or an error.
 */
export function parseProductionFilter(
  params: URLSearchParams,
  categories: string[],
): { filter: ProductionFilter; unknownCategory: boolean } {
  const wanted = (params.get("category") ?? "").trim();
  const known = wanted !== "" && categories.includes(wanted);
  return {
    filter: { category: known ? wanted : null, openOnly: params.get("open") === "1" },
    unknownCategory: wanted !== "" && !known,
  };
}

/** The totals shown above the list (and printed with it). */
export function productionTotals(rows: ProductionRow[]) {
  let lines = 0;
  let open = 0;
  for (const row of rows) {
    lines += row.lineCount;
    if (row.state !== "納品済み") open += 1;
  }
  return { rows: rows.length, lines, open };
}

/** The flags in words, for the CSV and the badges: 受注停止, お断り. */
export function productionFlags(row: Pick<ProductionRow, "stopped" | "declined">): string[] {
  return [...(row.stopped ? ["受注停止"] : []), ...(row.declined ? ["お断り"] : [])];
}

/** The CSV's header: the number column takes the contest's own label (ゼッケン番号, 演奏順, …). */
export function productionCsvHeader(bibNumberLabel: string): string[] {
  return [
    bibNumberLabel || "番号",
    "選手名",
    "部門",
    "スタイル",
    "向き",
    "注文数",
    "納品済み数",
    "最初の注文日時",
    "状態",
    "注意",
  ];
}

export function productionCsvRow(row: ProductionRow): string[] {
  return [
    String(row.athleteNumber),
    row.athleteName,
    row.category,
    row.style,
    ORIENTATION_LABELS[row.orientation],
    String(row.lineCount),
    String(row.deliveredCount),
    formatDateTime(row.firstOrderedAt),
    row.state,
    productionFlags(row).join("・"),
  ];
}
