import {
  and,
  count,
  desc,
  eq,
  exists,
  inArray,
  isNull,
  ne,
  not,
  or,
  sql,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { DELETED_CONTESTS, ORDER_TABS, orderTab, type OrderTab } from "~/lib/rules/order-tabs";
import { pageNumber, positiveId } from "~/lib/rules/params";
import { catalogueVersion } from "../../catalog/catalogue-cache.server";
import { db, type Db } from "../../db/client.server";
import { prepared } from "../../db/prepared.server";
import { versionCache } from "../../db/version-cache.server";
import { containsPattern } from "../../db/sql-like.server";
import { contests, downloadPages, orderLines, orders, refunds } from "../../db/schema";
import { lineRefundedCondition } from "../../refunds/order-refunds.server";
import { baseOrderNumber } from "../orders.server";
import { lineWithoutVideo } from "~/lib/rules/lines-without-video";
import { lineRefundState, refundedLineIds } from "~/lib/rules/refunds";
import { orderRefundMark } from "./order-page.server";

export const ORDER_GROUPS_PAGE_SIZE = 20;

/**
 * The list's summary (its counts, the contests that have orders, a tab's total) kept in memory
 * while no order or order line is written (`orders_version`, migration 0016): over a season's
 * orders these counts were most of the list's data cost, and they are the same whichever tab,
 * page or search an admin moves to. The orders shown are read afresh every time.
 */
const orderSummary = versionCache("orders_version", 200);

/**
 * Which contest's orders the list shows. An order keeps its contest's id until the contest is
 * deleted (then null; the order still has the contest's name), so "deleted" gathers those.
 */
export type OrderContestFilter =
  { kind: "all" } | { kind: "contest"; id: number; name: string } | { kind: "deleted" };

/**
 * Reads the `contest` query parameter. Anything that names no contest (malformed, or an id
 * that is gone) shows every contest rather than an error: the list is still useful, and the
 * select then shows what is really listed.
 */
export function orderContestFilter(value: string | null): OrderContestFilter {
  if (value === DELETED_CONTESTS) return { kind: "deleted" };
  const id = positiveId(value);
  const contest = id
    ? db().select({ id: contests.id, name: contests.name }).from(contests).where(eq(contests.id, id)).get()
    : undefined;
  return contest ? { kind: "contest", ...contest } : { kind: "all" };
}

/** The filter as the query parameter that reads back to it ("" for every contest). */
export function orderContestParam(filter: OrderContestFilter): string {
  if (filter.kind === "contest") return String(filter.id);
  return filter.kind === "deleted" ? DELETED_CONTESTS : "";
}

/**
 * The list's query parameters (the screen's address, the JSON call's query string): `tab`
 * (pending, handled or awaiting; anything else is pending), `contest` (see orderContestFilter),
 * `q` (order number, e-mail or name), `refund` (1: only orders with a refund that counts, 返金あり)
 * and `page`. Nothing here is refused: a list is still shown.
 */
export function orderListQuery(params: URLSearchParams) {
  return {
    tab: orderTab(params.get("tab")),
    refund: params.get("refund") === "1",
    q: (params.get("q") ?? "").trim().slice(0, 254),
    page: pageNumber(params.get("page"), 100_000),
    contest: orderContestFilter(params.get("contest")),
  };
}

// Every query below leads with contest_id (equality or IS NULL), then the payment and delivery
// status, so it can run on orders(contest_id, payment_status, status, created_at); "all" runs on
// orders(payment_status, status, created_at).
function contestCondition(kind: OrderContestFilter["kind"], id: number | Placeholder) {
  if (kind === "contest") return eq(orders.contestId, id);
  return kind === "deleted" ? isNull(orders.contestId) : undefined;
}

/** The filter's contest id, for contestCondition (unused unless the filter is a contest). */
const contestIdOf = (filter: OrderContestFilter) => (filter.kind === "contest" ? filter.id : 0);

/** The orders a tab lists: paid ones by delivery status, or those whose money is not in. */
function tabCondition(tab: OrderTab) {
  if (tab === "awaiting") return ne(orders.paymentStatus, "paid");
  return and(eq(orders.paymentStatus, "paid"), inArray(orders.status, [...ORDER_TABS[tab]]));
}

/** 返金あり: orders with a refund asked for or made (a failed one does not count), by refunds_order_idx. */
const hasRefund = () =>
  exists(
    db()
      .select({ one: sql`1` })
      .from(refunds)
      .where(and(eq(refunds.orderId, orders.id), ne(refunds.status, "failed"))),
  );

/**
 * What the contest select offers: contests with at least one order, newest contest first,
 * and whether any order's contest was deleted. A contest without orders is still accepted in
 * the URL (a link from its editor), so the selected one is offered too.
 */
export function orderListContests(filter: OrderContestFilter) {
  // Contest names come from the catalogue, so its write count is part of the key.
  const offered = orderSummary.cached(`contests:${catalogueVersion()}`, () => ({
    withOrders: db()
      .select({ id: contests.id, name: contests.name })
      .from(contests)
      .where(
        exists(
          db()
            .select({ one: sql`1` })
            .from(orders)
            .where(eq(orders.contestId, contests.id)),
        ),
      )
      .orderBy(desc(contests.createdAt), desc(contests.id))
      .all(),
    anyDeleted:
      db().select({ id: orders.id }).from(orders).where(isNull(orders.contestId)).limit(1).get() !==
      undefined,
  }));
  const selected =
    filter.kind === "contest" && !offered.withOrders.some((contest) => contest.id === filter.id)
      ? [{ id: filter.id, name: filter.name }]
      : [];
  return {
    contests: [...selected, ...offered.withOrders],
    deleted: filter.kind === "deleted" || offered.anyDeleted,
  };
}

export type OrderListCounts = {
  /** Paid orders in the 未対応 tab. */
  pending: number;
  /** Paid orders in the 対応済み tab. */
  handled: number;
  /** Konbini orders waiting for their store payment (the 入金待ち tab also shows expired ones). */
  awaiting: number;
  /** ファイル未設定の明細: lines of pending orders that nothing has been delivered for yet (お断り and refunded ones aside). */
  linesWithoutFile: number;
};

/** The summary above the list, for the selected contest (or all), whatever the tab and search. */
export function orderListCounts(filter: OrderContestFilter): OrderListCounts {
  return orderSummary.cached(`counts:${orderContestParam(filter)}`, () => countOrders(filter));
}

function countOrders(filter: OrderContestFilter): OrderListCounts {
  const where = contestCondition(filter.kind, contestIdOf(filter));
  const byStatus = db()
    .select({ paymentStatus: orders.paymentStatus, status: orders.status, n: count() })
    .from(orders)
    .where(where)
    .groupBy(orders.paymentStatus, orders.status)
    .all();
  const paidIn = (statuses: readonly string[]) =>
    byStatus
      .filter((row) => row.paymentStatus === "paid" && statuses.includes(row.status))
      .reduce((sum, row) => sum + row.n, 0);
  // A line's own status says whether it has been delivered (納品 and 完了 set it with the order's).
  const linesWithoutFile =
    db()
      .select({ n: count() })
      .from(orders)
      .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
      .where(
        and(
          where,
          tabCondition("pending"),
          eq(orderLines.status, "未対応"),
          // A line marked お断り or refunded gets no file (the rule of linesWithoutVideo, as SQL).
          eq(orderLines.refused, false),
          not(lineRefundedCondition()),
        ),
      )
      .get()?.n ?? 0;
  return {
    pending: paidIn(ORDER_TABS.pending),
    handled: paidIn(ORDER_TABS.handled),
    awaiting: byStatus.filter((row) => row.paymentStatus === "awaiting").reduce((sum, row) => sum + row.n, 0),
    linesWithoutFile,
  };
}

// What the list shows of an order and its lines (the screen and the JSON call), and nothing
// more: an order's secrets (its status page's token, the payment's ids) stay out of the page.
const GROUP_COLUMNS = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  createdAt: orders.createdAt,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  totalAmount: orders.totalAmount,
  bibNumberLabel: orders.bibNumberLabel,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  paymentDueAt: orders.paymentDueAt,
};
const LINE_COLUMNS = {
  id: orderLines.id,
  orderId: orderLines.orderId,
  lineNumber: orderLines.lineNumber,
  contestName: orderLines.contestName,
  category: orderLines.category,
  athleteNumber: orderLines.athleteNumber,
  athleteName: orderLines.athleteName,
  style: orderLines.style,
  price: orderLines.price,
  // The row shows a discounted line's list price beside what was paid.
  listPrice: orderLines.listPrice,
  status: orderLines.status,
  refused: orderLines.refused,
  refusalNote: orderLines.refusalNote,
  videoDownloadUrl: orderLines.videoDownloadUrl,
  deliveryFileId: orderLines.deliveryFileId,
  downloadStartedAt: orderLines.downloadStartedAt,
};

/** The page's orders for a `where` whose contest, if any, is the placeholder `contestId`. */
function groupsQuery(connection: Db, where: SQL | undefined) {
  return connection
    .select(GROUP_COLUMNS)
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare();
}

// The page's orders' lines and download pages, by the orders' ids as one JSON array: one
// statement whatever the page's length (order_id's index is still used).
const idsIn = (column: SQLiteColumn) =>
  sql`${column} in (select value from json_each(${sql.placeholder("ids")}))`;
const linesQuery = (connection: Db) =>
  connection
    .select(LINE_COLUMNS)
    .from(orderLines)
    .where(idsIn(orderLines.orderId))
    .orderBy(orderLines.id)
    .prepare();
const refundsQuery = (connection: Db) =>
  connection
    .select({
      orderId: refunds.orderId,
      status: refunds.status,
      amount: refunds.amount,
      lineIds: refunds.lineIds,
    })
    .from(refunds)
    .where(idsIn(refunds.orderId))
    .prepare();
const downloadPagesQuery = (connection: Db) =>
  connection
    .select({ orderId: downloadPages.orderId, id: downloadPages.id, expiresAt: downloadPages.expiresAt })
    .from(downloadPages)
    .where(idsIn(downloadPages.orderId))
    .prepare();

/** One order of the list with its lines and its download page, as the order list shows it. */
export type OrderGroup = ReturnType<typeof listOrderGroups>["groups"][number];
export type OrderGroupLine = OrderGroup["lines"][number];

/**
 * Orders of a tab (and of a contest), newest first, with their lines; searchable by order
 * number, e-mail or name. Without a search (the list as an admin works through it) the
 * statements are prepared once per tab and kind of contest filter.
 */
export function listOrderGroups(options: {
  tab: OrderTab;
  q: string;
  page: number;
  contest?: OrderContestFilter;
  /** 返金あり only. */
  refund?: boolean;
}) {
  const contest = options.contest ?? { kind: "all" };
  const search = options.q
    ? or(
        sql`${orders.orderNumber} like ${containsPattern(baseOrderNumber(options.q))} escape '\\'`,
        sql`${orders.customerEmail} like ${containsPattern(options.q.toLowerCase())} escape '\\'`,
        sql`${orders.customerName} like ${containsPattern(options.q)} escape '\\'`,
      )
    : undefined;
  const refunded = options.refund ? hasRefund() : undefined;
  const where = and(
    contestCondition(contest.kind, contestIdOf(contest)),
    tabCondition(options.tab),
    refunded,
    search,
  );
  const countTotal = () => db().select({ n: count() }).from(orders).where(where).get()?.n ?? 0;
  // A search's total is counted each time (its words are the admin's); a tab's is kept.
  const total = options.q
    ? countTotal()
    : orderSummary.cached(
        `total:${options.tab}:${orderContestParam(contest)}:${options.refund ? "refund" : ""}`,
        countTotal,
      );
  const page = {
    limit: ORDER_GROUPS_PAGE_SIZE,
    offset: (options.page - 1) * ORDER_GROUPS_PAGE_SIZE,
    contestId: contestIdOf(contest),
  };
  const pageQuery = (connection: Db) =>
    groupsQuery(
      connection,
      and(
        contestCondition(contest.kind, sql.placeholder("contestId")),
        tabCondition(options.tab),
        refunded,
        search,
      ),
    );
  const statement = search
    ? pageQuery(db())
    : prepared(`order-list:${options.tab}:${contest.kind}:${options.refund ? "refund" : ""}`, pageQuery);
  const groups = statement.all(page);
  const ids = JSON.stringify(groups.map((group) => group.id));
  const lines = groups.length ? prepared("order-list:lines", linesQuery).all({ ids }) : [];
  const pages = groups.length ? prepared("order-list:download-pages", downloadPagesQuery).all({ ids }) : [];
  const made = groups.length ? prepared("order-list:refunds", refundsQuery).all({ ids }) : [];
  return {
    total,
    pages: Math.max(1, Math.ceil(total / ORDER_GROUPS_PAGE_SIZE)),
    groups: groups.map((group) => {
      const its = made.filter((refund) => refund.orderId === group.id);
      const ofGroup = lines.filter((line) => line.orderId === group.id);
      const refunded = refundedLineIds(
        { totalAmount: group.totalAmount, lineIds: ofGroup.map((line) => line.id) },
        its,
      );
      return {
        ...group,
        // 返金済み / 一部返金 / 返金手続き中 on the order, and each line's own.
        refundMark: orderRefundMark(group.totalAmount, its),
        lines: ofGroup.map((line) => ({
          ...line,
          refundState: lineRefundState(line.id, its),
          // お断り or refunded: 納品 asks no video for it.
          withoutVideo: lineWithoutVideo(line, refunded),
        })),
        downloadPage: pages.find((page) => page.orderId === group.id) ?? null,
      };
    }),
  };
}
