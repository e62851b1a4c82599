import { and, asc, count, eq, gte, lt, sql, sum, type SQL } from "drizzle-orm";
import { DAY_MS, TOKYO_OFFSET_MS, tokyoDay, tokyoDayStart } from "~/lib/rules/tokyo-date";
import { db } from "../db/client.server";
import { contests, orderLines, orders } from "../db/schema";

export type SalesFilter = { contest: string | null; from: string | null; to: string | null };

/** Reads the filter from the query string; a malformed date is ignored (and reported), never an error. */
export function parseSalesFilter(params: URLSearchParams): SalesFilter & { invalid: string[] } {
  const invalid: string[] = [];
  const day = (name: string) => {
    const value = params.get(name)?.trim() ?? "";
    if (!value) return null;
    if (tokyoDayStart(value) === null) {
      invalid.push(name);
      return null;
    }
    return value;
  };
  const contest = params.get("contest")?.trim().slice(0, 200) || null;
  return { contest, from: day("from"), to: day("to"), invalid };
}

/**
 * Paid orders in the filter: by exact contest name, and by Tokyo days from–to inclusive. A konbini
 * order counts once its money is in (on its order day); one waiting or expired is no sale.
 */
function conditions(filter: SalesFilter): SQL | undefined {
  const parts: SQL[] = [eq(orders.paymentStatus, "paid")];
  if (filter.contest) parts.push(eq(orders.contestName, filter.contest));
  const from = filter.from ? tokyoDayStart(filter.from) : null;
  const to = filter.to ? tokyoDayStart(filter.to) : null;
  if (from !== null) parts.push(gte(orders.createdAt, new Date(from)));
  if (to !== null) parts.push(lt(orders.createdAt, new Date(to + DAY_MS)));
  return and(...parts);
}

// Tokyo day number of an order (UTC+9), as an integer: grouping by it is far cheaper than formatting dates.
// Literals, not parameters: better-sqlite3 binds numbers as REAL, which would make this a fraction.
const tokyoDayNumber = sql<number>`(${orders.createdAt} + ${sql.raw(String(TOKYO_OFFSET_MS))}) / ${sql.raw(String(DAY_MS))}`;

/**
 * The 売上集計 figures. One grouped query over the orders in the filter (by Tokyo day
 * and contest, from a covering index); the totals, the per-day series and the
 * per-contest breakdown are sums of its few rows.
 */
export function salesReport(filter: SalesFilter) {
  const groups = db()
    .select({
      day: tokyoDayNumber,
      contestName: orders.contestName,
      total: sum(orders.totalAmount).mapWith(Number),
      orders: count(),
      lines: sum(orders.lineCount).mapWith(Number),
    })
    .from(orders)
    .where(conditions(filter))
    .groupBy(tokyoDayNumber, orders.contestName)
    .all();

  const byDay = new Map<string, { day: string; total: number; orders: number }>();
  const byContest = new Map<string, { contestName: string; total: number; orders: number }>();
  let total = 0;
  let orderCount = 0;
  let lineCount = 0;
  for (const group of groups) {
    total += group.total;
    orderCount += group.orders;
    lineCount += group.lines;
    const day = tokyoDay(group.day * DAY_MS - TOKYO_OFFSET_MS);
    const dayRow = byDay.get(day) ?? { day, total: 0, orders: 0 };
    dayRow.total += group.total;
    dayRow.orders += group.orders;
    byDay.set(day, dayRow);
    const contestRow = byContest.get(group.contestName) ?? {
      contestName: group.contestName,
      total: 0,
      orders: 0,
    };
    contestRow.total += group.total;
    contestRow.orders += group.orders;
    byContest.set(group.contestName, contestRow);
  }
  const perDay = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  const perContest = [...byContest.values()].sort((a, b) => b.total - a.total);
  return { total, orderCount, lineCount, perDay: fillDays(perDay, filter), perContest };
}

/** Days without sales are shown as zero, so the chart's gaps are real gaps (up to a year). */
function fillDays(rows: { day: string; total: number; orders: number }[], filter: SalesFilter) {
  const first = filter.from ?? rows[0]?.day;
  const last = filter.to ?? rows.at(-1)?.day;
  if (!first || !last) return rows;
  const start = tokyoDayStart(first);
  const end = tokyoDayStart(last);
  if (start === null || end === null || end < start || (end - start) / DAY_MS > 366) return rows;
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const filled = [];
  for (let at = start; at <= end; at += DAY_MS) {
    const day = tokyoDay(at);
    filled.push(byDay.get(day) ?? { day, total: 0, orders: 0 });
  }
  return filled;
}

/** Contest names for the filter: current contests and those only orders still remember. */
export function salesContestNames(): string[] {
  const fromOrders = db().selectDistinct({ name: orders.contestName }).from(orders).all();
  const fromContests = db().select({ name: contests.name }).from(contests).all();
  return [...new Set([...fromContests, ...fromOrders].map((row) => row.name).filter(Boolean))].sort((a, b) =>
    a.localeCompare(b, "ja"),
  );
}

/** The filtered order lines for the CSV download, streamed in pages so memory stays flat. */
export function* salesCsvRows(filter: SalesFilter): Generator<string[]> {
  const where = conditions(filter);
  const pageSize = 2000;
  let afterId = 0;
  for (;;) {
    const rows = db()
      .select({
        id: orderLines.id,
        lineNumber: orderLines.lineNumber,
        orderNumber: orders.orderNumber,
        createdAt: orders.createdAt,
        contestName: orderLines.contestName,
        category: orderLines.category,
        athleteNumber: orderLines.athleteNumber,
        athleteName: orderLines.athleteName,
        style: orderLines.style,
        price: orderLines.price,
        status: orderLines.status,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orderLines.orderId, orders.id))
      .where(and(where, sql`${orderLines.id} > ${afterId}`))
      .orderBy(asc(orderLines.id))
      .limit(pageSize)
      .all();
    for (const row of rows) {
      yield [
        row.orderNumber,
        row.lineNumber,
        new Date(row.createdAt).toLocaleString("ja-JP", { timeZone: "Asia/Tokyo" }),
        row.contestName,
        row.category,
        String(row.athleteNumber),
        row.athleteName,
        row.style,
        String(row.price),
        row.status,
        row.customerName,
        row.customerEmail,
      ];
    }
    if (rows.length < pageSize) return;
    afterId = rows.at(-1)?.id ?? afterId;
  }
}

export const SALES_CSV_HEADER = [
  "注文番号",
  "明細番号",
  "注文日時",
  "大会名",
  "部門",
  "選手番号",
  "選手名",
  "スタイル",
  "価格（税込）",
  "状態",
  "お名前",
  "メールアドレス",
];
