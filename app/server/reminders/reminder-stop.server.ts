import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { siteUrl } from "../core/site-url.server";
import { db, type Tx } from "../db/client.server";
import { orderReminders, orders } from "../db/schema";
import { cancelQueuedMail } from "../mail/outbox.server";
import { REMINDER_KINDS, reminderKey } from "./reminders.server";

/*
 * The stop link every reminder mail carries: `/reminders/:token`, one token per order, made with
 * its first reminder. Opening it only asks (a mail scanner follows links); the page's button posts,
 * and from then on no reminder of the order is queued, and none waiting in the outbox is sent.
 * The order's other mails (a payment received, a delivery, a refund) are not reminders and go on.
 */

/** The stop link's path: for the page's own form, and through siteUrl for the mails. */
export function reminderStopPath(token: string): string {
  return `/reminders/${token}`;
}

/** The order's stop token, made the first time a reminder of it is queued (in that transaction). */
export function stopTokenOf(tx: Tx, orderId: number): string {
  tx.insert(orderReminders)
    .values({ orderId, stopToken: crypto.randomBytes(16).toString("base64url"), createdAt: now() })
    .onConflictDoNothing({ target: orderReminders.orderId })
    .run();
  return tx
    .select({ token: orderReminders.stopToken })
    .from(orderReminders)
    .where(eq(orderReminders.orderId, orderId))
    .get()!.token;
}

export function reminderStopUrl(token: string): string {
  return siteUrl(reminderStopPath(token));
}

/** 128 random bits, base64url: anything else is no token (the same answer as an unknown one). */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{22}$/;

export type ReminderStopPage = {
  orderNumber: string;
  contestName: string;
  /** When the customer stopped the reminders; null while they may still come. */
  stoppedAt: Date | null;
};

/** What the stop page shows for a token, or null when no order has it. Changes nothing. */
export function reminderStopPage(token: string): ReminderStopPage | null {
  if (!TOKEN_FORMAT.test(token)) return null;
  return (
    db()
      .select({
        orderNumber: orders.orderNumber,
        contestName: orders.contestName,
        stoppedAt: orderReminders.stoppedAt,
      })
      .from(orderReminders)
      .innerJoin(orders, eq(orders.id, orderReminders.orderId))
      .where(eq(orderReminders.stopToken, token))
      .get() ?? null
  );
}

/**
 * Stops the order's further reminders: marked (the first time counts; a second post changes
 * nothing), and its reminders still waiting in the outbox cancelled, in one transaction with the
 * pass's queueing so that none slips between. False when no order has the token.
 */
export function stopReminders(token: string): boolean {
  if (!TOKEN_FORMAT.test(token)) return false;
  return db().transaction(
    (tx) => {
      const row = tx
        .select({ orderId: orderReminders.orderId, stoppedAt: orderReminders.stoppedAt })
        .from(orderReminders)
        .where(eq(orderReminders.stopToken, token))
        .get();
      if (!row) return false;
      if (!row.stoppedAt)
        tx.update(orderReminders)
          .set({ stoppedAt: now() })
          .where(eq(orderReminders.orderId, row.orderId))
          .run();
      cancelQueuedMail(
        REMINDER_KINDS.map((kind) => reminderKey(kind, row.orderId)),
        tx,
      );
      return true;
    },
    { behavior: "immediate" },
  );
}
