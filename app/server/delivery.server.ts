import crypto from "node:crypto";
import { and, count, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { ORDER_TABS, type OrderTab } from "~/lib/order-tabs";
import { now } from "./clock.server";
import { db } from "./db/client.server";
import { containsPattern } from "./sql-like.server";
import { downloadPages, orderLines, orders, type OrderStatus } from "./db/schema";
import { env } from "./env.server";
import { deliveryMail } from "./mail/templates/delivery.server";
import { sendMail } from "./mail/transport.server";

export const ORDER_GROUPS_PAGE_SIZE = 20;

/** A line number without its -N suffix: the order it belongs to. */
export function baseOrderNumber(lineNumber: string): string {
  return lineNumber.replace(/-\d+$/, "");
}


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
  const lines = ids.length ? db().select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(orderLines.id).all() : [];
  const pages = ids.length ? db().select().from(downloadPages).where(inArray(downloadPages.orderId, ids)).all() : [];
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

function setStatus(orderId: number, status: OrderStatus) {
  db().transaction((tx) => {
    tx.update(orders).set({ status }).where(eq(orders.id, orderId)).run();
    tx.update(orderLines).set({ status }).where(eq(orderLines.orderId, orderId)).run();
  });
}

/** 完了: the group is handled without a delivery (e.g. refused, or delivered by hand). */
export function completeOrder(orderId: number): boolean {
  const order = db().select({ id: orders.id, status: orders.status }).from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return false;
  setStatus(orderId, "対応済み");
  return true;
}

export const DELIVERY_MESSAGES = {
  missingUrl: "すべての動画のダウンロードURLを入力してください。",
  badUrl: "ダウンロードURLは http:// または https:// で始まるURLを入力してください。",
} as const;

export function isDownloadUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && value.length <= 2000;
  } catch {
    return false;
  }
}

export type DeliverResult =
  | { ok: false; status: 400 | 404; message: string }
  | { ok: true; mail: "sent" | "failed" | "already-sent"; pageId: string };

/**
 * 納品: saves every line's URL (all or nothing), makes the order's download page, moves
 * the order to handled, and mails the customer once. "Once" holds for a double click, a
 * resubmitted form and two admins: the mail is claimed by one atomic update.
 */
export async function deliverOrder(orderId: number, urls: Map<number, string>, files: Map<number, string> = new Map()): Promise<DeliverResult> {
  const order = db().select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return { ok: false, status: 404, message: "注文が見つかりません" };
  const lines = db().select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, orderId)).all();
  for (const line of lines) {
    const url = urls.get(line.id)?.trim() ?? "";
    if (files.has(line.id)) continue;
    if (!url) return { ok: false, status: 400, message: DELIVERY_MESSAGES.missingUrl };
    if (!isDownloadUrl(url)) return { ok: false, status: 400, message: DELIVERY_MESSAGES.badUrl };
  }
  const at = now();
  const pageId = db().transaction(
    (tx) => {
      for (const line of lines) {
        const file = files.get(line.id);
        tx.update(orderLines)
          .set(file ? { deliveredMediaName: file, videoDownloadUrl: null, status: "納品済み" } : { videoDownloadUrl: urls.get(line.id)?.trim(), deliveredMediaName: null, status: "納品済み" })
          .where(eq(orderLines.id, line.id))
          .run();
      }
      tx.update(orders).set({ status: "納品済み" }).where(eq(orders.id, orderId)).run();
      const existing = tx.select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
      if (existing) return existing.id;
      const id = crypto.randomBytes(16).toString("base64url");
      tx.insert(downloadPages)
        .values({ id, orderId, createdAt: at, expiresAt: new Date(at.getTime() + env().DOWNLOAD_EXPIRY_DAYS * 24 * 3600_000) })
        .run();
      return id;
    },
    { behavior: "immediate" },
  );
  const claimed = db().update(orders).set({ deliveryMailSentAt: at }).where(and(eq(orders.id, orderId), isNull(orders.deliveryMailSentAt))).run().changes === 1;
  if (!claimed) return { ok: true, mail: "already-sent", pageId };
  const sent = await sendDeliveryMail(orderId);
  if (!sent) db().update(orders).set({ deliveryMailSentAt: null }).where(eq(orders.id, orderId)).run();
  return { ok: true, mail: sent ? "sent" : "failed", pageId };
}

async function sendDeliveryMail(orderId: number): Promise<boolean> {
  const order = db().select().from(orders).where(eq(orders.id, orderId)).get();
  const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  if (!order || !page) return false;
  const videoCount = db().select({ n: count() }).from(orderLines).where(eq(orderLines.orderId, orderId)).get()?.n ?? 0;
  try {
    await sendMail(
      order.customerEmail,
      deliveryMail({ customerName: order.customerName, orderNumber: order.orderNumber, contestName: order.contestName, url: `${env().SITE_URL}/download/${page.id}`, expiresAt: page.expiresAt, videoCount }),
    );
    return true;
  } catch (error) {
    console.error(`[delivery] mail for ${order.orderNumber} failed`, error);
    return false;
  }
}

/** Sends the delivery mail again (the customer lost it). */
export async function resendDeliveryMail(orderId: number): Promise<boolean> {
  const sent = await sendDeliveryMail(orderId);
  if (sent) db().update(orders).set({ deliveryMailSentAt: now() }).where(eq(orders.id, orderId)).run();
  return sent;
}

/** Lets a line be downloaded again (a broken file, a lost phone). */
export function resetLineDownload(orderId: number, lineId: number): boolean {
  return db().update(orderLines).set({ downloadStartedAt: null }).where(and(eq(orderLines.id, lineId), eq(orderLines.orderId, orderId))).run().changes === 1;
}

/** Moves the download page's expiry N days past the later of now and the current expiry. */
export function extendDownloadPage(orderId: number, days: number): Date | null {
  const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  if (!page) return null;
  const from = Math.max(page.expiresAt.getTime(), now().getTime());
  const expiresAt = new Date(from + days * 24 * 3600_000);
  db().update(downloadPages).set({ expiresAt }).where(eq(downloadPages.id, page.id)).run();
  return expiresAt;
}

