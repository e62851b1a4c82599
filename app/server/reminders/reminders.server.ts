import { and, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import { DAY_MS, HOUR_MS, TOKYO_OFFSET_MS } from "~/lib/rules/tokyo-date";
import { db } from "../db/client.server";
import { downloadPages, orderReminders, orders } from "../db/schema";
import { isDelivered, linesOfOrders, type OrderLine } from "../orders/order-lines.server";
import { refundedLinesOf } from "../refunds/order-refunds.server";

/*
 * Reminder mails (decision 0045): before a konbini voucher's deadline, and before a download page
 * ends while a video of it was never fetched. Each is a row of the outbox under its own key, so
 * it is queued once however often the pass runs (reminder-pass.server.ts); each is stopped by
 * what it reminds of (the payment, the downloads, the end itself) and by the order's stop link
 * (reminder-stop.server.ts).
 *
 * The 早割's end is deliberately not mailed: a parent gave the shop an address to receive an
 * order's mails, not advertising, and a mail saying "buy now, the price goes up" is marketing
 * (特定電子メール法 asks for consent first). Reminders here are only about an order the parent
 * already made: money owed on it, videos bought on it.
 */

export const REMINDER_KINDS = ["konbini", "download_7d", "download_1d"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

const KEY_PREFIX = "reminder:";

/**
 * The outbox's key of a reminder: one per order and kind. A download page extended later keeps
 * its order's keys, so a parent gets each reminder once, not once per extension (the admin who
 * extends a page is already in touch with the parent).
 */
export function reminderKey(kind: ReminderKind, orderId: number): string {
  return `${KEY_PREFIX}${kind}:${orderId}`;
}

export function parseReminderKey(key: string): { kind: ReminderKind; orderId: number } | null {
  const match = /^reminder:([a-z0-9_]+):(\d+)$/.exec(key);
  const kind = REMINDER_KINDS.find((each) => each === match?.[1]);
  return kind && match ? { kind, orderId: Number(match[2]) } : null;
}

/** The outbox's reminders are the keys in [`reminder:`, `reminder;`): a range of its unique index. */
export const REMINDER_KEY_RANGE = [KEY_PREFIX, "reminder;"] as const;

/** Reminders go out in the morning, Japan time, not at whatever minute "a day before" falls on. */
export const REMINDER_HOUR_TOKYO = 9;

/**
 * A reminder is not sent for what began less than this before it would go (a 1-day voucher, a
 * page shorter than a week): the mail that began it is still fresh, and says the same.
 */
export const MIN_NOTICE_MS = 12 * HOUR_MS;

/** 9:00 Japan time on the day `days` before the (Tokyo) day of `end`. Japan has no summer time. */
export function reminderTime(end: Date, days: number): Date {
  const tokyoDay = Math.floor((end.getTime() + TOKYO_OFFSET_MS) / DAY_MS);
  return new Date((tokyoDay - days) * DAY_MS + REMINDER_HOUR_TOKYO * HOUR_MS - TOKYO_OFFSET_MS);
}

/** Looking this far ahead finds every end whose reminder may be due (the 7-day one: up to 8 days). */
const LOOK_AHEAD_MS = 9 * DAY_MS;

type Order = typeof orders.$inferSelect;

export type DueReminder =
  | { kind: "konbini"; order: Order; end: Date }
  | {
      kind: "download_7d" | "download_1d";
      order: Order;
      end: Date;
      pageId: string;
      videos: OrderLine[];
    };

/**
 * The videos of an order the parent has still to fetch: delivered, not お断り, not refunded, and
 * never started (a started download counts, resumable for its 24 hours: it is not forgotten).
 */
export function videosNotDownloaded(orderIds: readonly number[]): Map<number, OrderLine[]> {
  // Refunded as the download page reads it (refundedLineIds): a whole order refunded by a typed amount too.
  const refunded = refundedLinesOf(orderIds);
  const waiting = new Map<number, OrderLine[]>();
  for (const line of linesOfOrders(orderIds)) {
    if (line.refused || !isDelivered(line) || line.downloadStartedAt !== null) continue;
    if (refunded.has(line.id)) continue;
    waiting.set(line.orderId, [...(waiting.get(line.orderId) ?? []), line]);
  }
  return waiting;
}

/**
 * The konbini voucher's reminder is due from 9:00 on the day before its deadline's day until the
 * deadline, while the order still waits for its money; a voucher made after the evening before
 * gets none.
 */
function konbiniDue(order: Order, at: Date): boolean {
  if (order.paymentStatus !== "awaiting" || !order.paymentDueAt || order.paymentDueAt <= at) return false;
  const due = reminderTime(order.paymentDueAt, 1);
  return due <= at && order.createdAt.getTime() <= due.getTime() - MIN_NOTICE_MS;
}

/**
 * Which of a download page's reminders is due now: the 1-day one from 9:00 on the day before its
 * end, the 7-day one from 9:00 seven days before until the 1-day one takes over (a pass that
 * missed the week, the server down, sends only the later one). None for a page made after it.
 */
function downloadKindDue(
  page: { createdAt: Date; expiresAt: Date },
  at: Date,
): "download_7d" | "download_1d" | null {
  if (page.expiresAt <= at) return null;
  const kind = reminderTime(page.expiresAt, 1) <= at ? "download_1d" : "download_7d";
  const due = reminderTime(page.expiresAt, kind === "download_1d" ? 1 : 7);
  if (due > at || page.createdAt.getTime() > due.getTime() - MIN_NOTICE_MS) return null;
  return kind;
}

/**
 * Every reminder due at `at` by the clock, for orders whose reminders were not stopped. Already
 * queued ones are among them: the outbox's keys make queueing them again do nothing.
 */
export function dueReminders(at: Date): DueReminder[] {
  const ahead = new Date(at.getTime() + LOOK_AHEAD_MS);
  const notStopped = isNull(orderReminders.stoppedAt);
  const vouchers = db()
    .select({ order: orders })
    .from(orders)
    .leftJoin(orderReminders, eq(orderReminders.orderId, orders.id))
    .where(
      and(
        eq(orders.paymentStatus, "awaiting"),
        gt(orders.paymentDueAt, at),
        lte(orders.paymentDueAt, ahead),
        notStopped,
      ),
    )
    .all()
    .flatMap(({ order }): DueReminder[] =>
      konbiniDue(order, at) ? [{ kind: "konbini", order, end: order.paymentDueAt! }] : [],
    );
  const pages = db()
    .select({ page: downloadPages, order: orders })
    .from(downloadPages)
    .innerJoin(orders, eq(orders.id, downloadPages.orderId))
    .leftJoin(orderReminders, eq(orderReminders.orderId, orders.id))
    .where(and(gt(downloadPages.expiresAt, at), lte(downloadPages.expiresAt, ahead), notStopped))
    .all()
    .flatMap(({ page, order }) => {
      const kind = downloadKindDue(page, at);
      return kind ? [{ kind, page, order }] : [];
    });
  const waiting = videosNotDownloaded(pages.map(({ order }) => order.id));
  const downloads = pages.flatMap(({ kind, page, order }): DueReminder[] => {
    const videos = waiting.get(order.id) ?? [];
    return videos.length > 0 ? [{ kind, order, end: page.expiresAt, pageId: page.id, videos }] : [];
  });
  return [...vouchers, ...downloads];
}

/**
 * Whether a reminder queued earlier may still go (it waits in the outbox while SMTP is down):
 * not once the order is paid or ended, its videos fetched, its page ended, or its reminders
 * stopped. The outbox's own expiry (the deadline, the page's end) stops it at the end as well.
 */
export function stillWanted(reminders: { kind: ReminderKind; orderId: number }[], at: Date): boolean[] {
  const orderIds = [...new Set(reminders.map((reminder) => reminder.orderId))];
  if (orderIds.length === 0) return [];
  const rows = db()
    .select({ order: orders, stoppedAt: orderReminders.stoppedAt, pageEnd: downloadPages.expiresAt })
    .from(orders)
    .leftJoin(orderReminders, eq(orderReminders.orderId, orders.id))
    .leftJoin(downloadPages, eq(downloadPages.orderId, orders.id))
    .where(inArray(orders.id, orderIds))
    .all();
  const byOrder = new Map(rows.map((row) => [row.order.id, row]));
  const waiting = videosNotDownloaded(orderIds);
  return reminders.map(({ kind, orderId }) => {
    const row = byOrder.get(orderId);
    if (!row || row.stoppedAt) return false;
    if (kind === "konbini")
      return (
        row.order.paymentStatus === "awaiting" && !!row.order.paymentDueAt && row.order.paymentDueAt > at
      );
    return !!row.pageEnd && row.pageEnd > at && (waiting.get(orderId)?.length ?? 0) > 0;
  });
}
