import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { REFUND_STATUS_LABELS } from "~/lib/rules/refunds";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import { db } from "../db/client.server";
import { orderLines, orders, refunds } from "../db/schema";
import { refundConditions, salesConditions, type SalesFilter } from "./sales.server";

/**
 * The 売上集計 CSV: one row per order line of the filter (区分 売上, counted on its order's day),
 * then one row per refund of the filter (区分 返金, counted on the day it was made, as the report
 * counts it; see refundConditions). Columns 15–17 are 売上, 返金 and 純売上 of each row, so a
 * spreadsheet's sums by 計上日 or 大会名 give the page's figures; the first twelve are as they were.
 * The last four (decision 0038) break a sale down: 定価 (the line's list price), 割引 (what promotions and
 * the coupon took off it), 割引後 (what was paid: the same as 売上) and the order's クーポンコード; a
 * refund row has 0 in the three and no code. Spreadsheets read the columns by position: new ones
 * go at the end.
 */
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
  "区分",
  "計上日",
  "売上（税込）",
  "返金（税込）",
  "純売上（税込）",
  "定価（税込）",
  "割引（税込）",
  "割引後（税込）",
  "クーポンコード",
];

const PAGE_SIZE = 2000;

/**
 * 注文日時 as toLocaleString("ja-JP") in Tokyo writes it ("2025/3/1 9:05:00"), from one formatter made
 * once: toLocaleString builds a formatter per call, which was most of the CSV's time (0.3 s of
 * 0.46 s for a contest's month of 3,600 lines in npm run bench:admin).
 */
const orderTimeFormat = new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});
const orderTime = (at: Date | number) => orderTimeFormat.format(new Date(at));

/** Streamed in pages (by id) so memory stays flat however long the period. */
export function* salesCsvRows(filter: SalesFilter): Generator<string[]> {
  yield* saleRows(filter);
  yield* refundRows(filter);
}

function* saleRows(filter: SalesFilter): Generator<string[]> {
  const where = salesConditions(filter);
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
        listPrice: orderLines.listPrice,
        couponCode: orders.couponCode,
        status: orderLines.status,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orderLines.orderId, orders.id))
      .where(and(where, sql`${orderLines.id} > ${afterId}`))
      .orderBy(asc(orderLines.id))
      .limit(PAGE_SIZE)
      .all();
    for (const row of rows) {
      yield [
        row.orderNumber,
        row.lineNumber,
        orderTime(row.createdAt),
        row.contestName,
        row.category,
        String(row.athleteNumber),
        row.athleteName,
        row.style,
        String(row.price),
        row.status,
        row.customerName,
        row.customerEmail,
        "売上",
        tokyoDay(row.createdAt),
        String(row.price),
        "0",
        String(row.price),
        // A line from before promotions was sold at its list price.
        String(row.listPrice ?? row.price),
        String((row.listPrice ?? row.price) - row.price),
        String(row.price),
        row.couponCode ?? "",
      ];
    }
    if (rows.length < PAGE_SIZE) return;
    afterId = rows.at(-1)?.id ?? afterId;
  }
}

/** A refund's row: its order, the lines it pays back (none for a typed amount), its state and amount. */
function* refundRows(filter: SalesFilter): Generator<string[]> {
  const where = refundConditions(filter);
  let afterId = 0;
  for (;;) {
    const rows = db()
      .select({
        id: refunds.id,
        lineIds: refunds.lineIds,
        amount: refunds.amount,
        status: refunds.status,
        createdAt: refunds.createdAt,
        orderNumber: orders.orderNumber,
        orderCreatedAt: orders.createdAt,
        contestName: orders.contestName,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
      })
      .from(refunds)
      .innerJoin(orders, eq(refunds.orderId, orders.id))
      .where(and(where, sql`${refunds.id} > ${afterId}`))
      .orderBy(asc(refunds.id))
      .limit(PAGE_SIZE)
      .all();
    const lineNumbers = lineNumbersOf(rows.flatMap((row) => row.lineIds));
    for (const row of rows) {
      yield [
        row.orderNumber,
        row.lineIds.map((id) => lineNumbers.get(id) ?? "").join(" "),
        orderTime(row.orderCreatedAt),
        row.contestName,
        "",
        "",
        "",
        "",
        "",
        REFUND_STATUS_LABELS[row.status],
        row.customerName,
        row.customerEmail,
        "返金",
        tokyoDay(row.createdAt),
        "0",
        String(row.amount),
        String(-row.amount),
        "0",
        "0",
        "0",
        "",
      ];
    }
    if (rows.length < PAGE_SIZE) return;
    afterId = rows.at(-1)?.id ?? afterId;
  }
}

function lineNumbersOf(ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db()
    .select({ id: orderLines.id, lineNumber: orderLines.lineNumber })
    .from(orderLines)
    .where(inArray(orderLines.id, [...new Set(ids)]))
    .all();
  return new Map(rows.map((row) => [row.id, row.lineNumber]));
}
