import { and, count, desc, inArray, or, sql } from "drizzle-orm";
import { ORDER_TABS, type OrderTab } from "~/lib/order-tabs";
import { db } from "../db/client.server";
import { containsPattern } from "../db/sql-like.server";
import { downloadPages, orderLines, orders } from "../db/schema";
import { baseOrderNumber } from "./delivery.server";

export const ORDER_GROUPS_PAGE_SIZE = 20;

/** Orders of a tab, newest first, with their lines; searchable by order number, e-mail or name. */
export function listOrderGroups(options: { tab: OrderTab; q: string; page: number }) {
  const search = options.q
    ? or(
        sql`${orders.orderNumber} like ${containsPattern(baseOrderNumber(options.q))} escape '\\'`,
        sql`${orders.customerEmail} like ${containsPattern(options.q.toLowerCase())} escape '\\'`,
        sql`${orders.customerName} like ${containsPattern(options.q)} escape '\\'`,
      )
    : undefined;
  const where = and(inArray(orders.status, [...ORDER_TABS[options.tab]]), search);
  const total = db().select({ n: count() }).from(orders).where(where).get()?.n ?? 0;
  const groups = db()
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDER_GROUPS_PAGE_SIZE)
    .offset((options.page - 1) * ORDER_GROUPS_PAGE_SIZE)
    .all();
  const ids = groups.map((group) => group.id);
  const lines = ids.length
    ? db().select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(orderLines.id).all()
    : [];
  const pages = ids.length
    ? db().select().from(downloadPages).where(inArray(downloadPages.orderId, ids)).all()
    : [];
  return {
    total,
    pages: Math.max(1, Math.ceil(total / ORDER_GROUPS_PAGE_SIZE)),
    groups: groups.map((group) => ({
      ...group,
      lines: lines.filter((line) => line.orderId === group.id),
      downloadPage: pages.find((page) => page.orderId === group.id) ?? null,
    })),
  };
}
