import { and, count, desc, eq, gte, inArray, isNotNull, lt, sql, sum, type SQL } from "drizzle-orm";
import { countsAsRefund, REFUND_STATUSES } from "~/lib/rules/refunds";
import { DAY_MS, TOKYO_OFFSET_MS, tokyoDay, tokyoDayStart } from "~/lib/rules/tokyo-date";
import { db } from "../db/client.server";
import { contests, orders, refunds } from "../db/schema";

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
export function salesConditions(filter: SalesFilter): SQL | undefined {
  const parts: SQL[] = [eq(orders.paymentStatus, "paid")];
  if (filter.contest) parts.push(eq(orders.contestName, filter.contest));
  const from = filter.from ? tokyoDayStart(filter.from) : null;
  const to = filter.to ? tokyoDayStart(filter.to) : null;
  if (from !== null) parts.push(gte(orders.createdAt, new Date(from)));
  if (to !== null) parts.push(lt(orders.createdAt, new Date(to + DAY_MS)));
  return and(...parts);
}

/** Tokyo day number of an instant column (UTC+9), as an integer: grouping by it is far cheaper than formatting dates. */
// Literals, not parameters: better-sqlite3 binds numbers as REAL, which would make this a fraction.
const tokyoDayNumber = (column: typeof orders.createdAt | typeof refunds.createdAt) =>
  sql<number>`(${column} + ${sql.raw(String(TOKYO_OFFSET_MS))}) / ${sql.raw(String(DAY_MS))}`;
const orderDay = tokyoDayNumber(orders.createdAt);
const refundDay = tokyoDayNumber(refunds.createdAt);

const COUNTED_REFUND_STATUSES = REFUND_STATUSES.filter(countsAsRefund);

/**
 * Refunds of orders in the filter. A refund belongs to the Tokyo day it was made (refunds.createdAt),
 * not to its order's day: that is when the money left the shop, so a refund of an order of another
 * month lowers the month it was made in, and a month already reported is not changed by later refunds. Only
 * refunds that count are in (requested, processing, succeeded: the money is promised; a failed one
 * moved nothing). Refunds of stray payments are not here (they have no order to join): that money
 * never was a sale.
 */
export function refundConditions(filter: SalesFilter): SQL | undefined {
  const parts: SQL[] = [inArray(refunds.status, COUNTED_REFUND_STATUSES)];
  if (filter.contest) parts.push(eq(orders.contestName, filter.contest));
  const from = filter.from ? tokyoDayStart(filter.from) : null;
  const to = filter.to ? tokyoDayStart(filter.to) : null;
  if (from !== null) parts.push(gte(refunds.createdAt, new Date(from)));
  if (to !== null) parts.push(lt(refunds.createdAt, new Date(to + DAY_MS)));
  return and(...parts);
}

/**
 * `listGross` (総額（定価）): the orders at their list prices; `discounts` (割引): what promotions and
 * coupons took off; `gross` (売上): what was charged, the one less the other; `net` (純売上): that
 * less the refunds.
 */
export type SalesFigures = {
  listGross: number;
  discounts: number;
  gross: number;
  refunds: number;
  net: number;
  orders: number;
};
export type SalesDay = SalesFigures & { day: string };
export type SalesContest = SalesFigures & { contestName: string };
/** A coupon's orders in the filter: how many, and the discount it gave them. */
export type SalesCoupon = { code: string; uses: number; discount: number };

const noFigures = (): SalesFigures => ({
  listGross: 0,
  discounts: 0,
  gross: 0,
  refunds: 0,
  net: 0,
  orders: 0,
});

type Sold = { listGross: number; gross: number; refunded: number; orders: number };

function add(into: SalesFigures, sold: Sold) {
  into.listGross += sold.listGross;
  into.discounts += sold.listGross - sold.gross;
  into.gross += sold.gross;
  into.refunds += sold.refunded;
  into.net += sold.gross - sold.refunded;
  into.orders += sold.orders;
}

// An order from before promotions has no list total: it was sold at its list price.
const listTotal = sql<number>`coalesce(${orders.listTotal}, ${orders.totalAmount})`;

/**
 * The 売上集計 figures: 売上 (gross: paid orders on their order day), 返金 (refunds on the day they
 * were made) and 純売上 (net: the one less the other), in total, per day and per contest. Two grouped
 * queries: the orders from their covering index (orders_sales_idx); the refunds by refunds_created_idx
 * when dates are given (by the contest's orders when a contest is too), each reaching its order's
 * contest by the order's key: 0.2–4 ms for 2,500 refunds beside 50,000 orders (npm run bench:admin).
 * The totals and series are sums of their few rows.
 */
export function salesReport(filter: SalesFilter) {
  const sales = db()
    .select({
      day: orderDay,
      contestName: orders.contestName,
      total: sum(orders.totalAmount).mapWith(Number),
      listTotal: sum(listTotal).mapWith(Number),
      orders: count(),
      lines: sum(orders.lineCount).mapWith(Number),
    })
    .from(orders)
    .where(salesConditions(filter))
    .groupBy(orderDay, orders.contestName)
    .all();
  const refunded = db()
    .select({ day: refundDay, contestName: orders.contestName, total: sum(refunds.amount).mapWith(Number) })
    .from(refunds)
    .innerJoin(orders, eq(refunds.orderId, orders.id))
    .where(refundConditions(filter))
    .groupBy(refundDay, orders.contestName)
    .all();

  const totals = noFigures();
  let lineCount = 0;
  const byDay = new Map<string, SalesDay>();
  const byContest = new Map<string, SalesContest>();
  const tally = (group: { day: number; contestName: string }, sold: Sold) => {
    add(totals, sold);
    const day = tokyoDay(group.day * DAY_MS - TOKYO_OFFSET_MS);
    const dayRow = byDay.get(day) ?? { day, ...noFigures() };
    add(dayRow, sold);
    byDay.set(day, dayRow);
    const contestRow = byContest.get(group.contestName) ?? { contestName: group.contestName, ...noFigures() };
    add(contestRow, sold);
    byContest.set(group.contestName, contestRow);
  };
  for (const group of sales) {
    lineCount += group.lines;
    tally(group, { listGross: group.listTotal, gross: group.total, refunded: 0, orders: group.orders });
  }
  for (const group of refunded) tally(group, { listGross: 0, gross: 0, refunded: group.total, orders: 0 });
  const perDay = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  const perContest = [...byContest.values()].sort((a, b) => b.net - a.net);
  return {
    listGross: totals.listGross,
    discounts: totals.discounts,
    gross: totals.gross,
    refunds: totals.refunds,
    net: totals.net,
    orderCount: totals.orders,
    lineCount,
    perDay: fillDays(perDay, filter),
    perContest,
    perCoupon: salesByCoupon(filter),
  };
}

/**
 * The coupons used by the orders of the filter (on their order day, as their sales are): the
 * code as the order keeps it, the orders that used it and the coupon discount they got (read
 * from the order's own breakdown, so a coupon edited or deleted later still reports what it gave).
 */
export function salesByCoupon(filter: SalesFilter): SalesCoupon[] {
  const couponDiscount = sql<number>`coalesce((select sum(json_extract(d.value, '$.amount')) from json_each(${orders.discounts}) d where json_extract(d.value, '$.kind') = 'coupon'), 0)`;
  return db()
    .select({
      code: sql<string>`${orders.couponCode}`,
      uses: count(),
      discount: sum(couponDiscount).mapWith(Number),
    })
    .from(orders)
    .where(and(salesConditions(filter), isNotNull(orders.couponCode)))
    .groupBy(orders.couponCode)
    .orderBy(desc(sum(couponDiscount)), orders.couponCode)
    .all();
}

/** Days without sales are shown as zero, so the chart's gaps are real gaps (up to a year). */
function fillDays(rows: SalesDay[], filter: SalesFilter): SalesDay[] {
  const first = filter.from ?? rows[0]?.day;
  const last = filter.to ?? rows.at(-1)?.day;
  if (!first || !last) return rows;
  const start = tokyoDayStart(first);
  const end = tokyoDayStart(last);
  if (start === null || end === null || end < start || (end - start) / DAY_MS > 366) return rows;
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const filled: SalesDay[] = [];
  for (let at = start; at <= end; at += DAY_MS) {
    const day = tokyoDay(at);
    filled.push(byDay.get(day) ?? { day, ...noFigures() });
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
