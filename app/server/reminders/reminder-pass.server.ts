import { and, count, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { numberLabelOf } from "~/lib/rules/number-label";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { remember } from "../core/remember.server";
import { orderStatusUrl, siteUrl } from "../core/site-url.server";
import { db } from "../db/client.server";
import { mailOutbox, orderReminders } from "../db/schema";
import type { RenderedMail } from "../mail/layout.server";
import { cancelQueuedMail, queueMail } from "../mail/outbox.server";
import { downloadReminderMail } from "../mail/templates/download-reminder.server";
import { konbiniReminderMail } from "../mail/templates/konbini-reminder.server";
import { reminderStopUrl, stopTokenOf } from "./reminder-stop.server";
import {
  dueReminders,
  parseReminderKey,
  REMINDER_KEY_RANGE,
  REMINDER_KINDS,
  reminderKey,
  stillWanted,
  type DueReminder,
  type ReminderKind,
} from "./reminders.server";

/*
 * The reminders' pass: run by the server itself every REMINDER_PASS_INTERVAL_MS and once at
 * start-up (no cron). It reads the clock, queues each reminder that is due and not yet in the
 * outbox, and cancels the ones waiting there whose cause has lapsed. Everything it knows is in
 * the database, so a pass after a restart does what the missed ones would have: a reminder that
 * fell due while the server was down goes late, unless what it reminds of has lapsed meanwhile.
 */

export const REMINDER_PASS_INTERVAL_MS = 10 * MINUTE_MS;

function mailOf(due: DueReminder, stopUrl: string): RenderedMail {
  const { order } = due;
  if (due.kind === "konbini")
    return konbiniReminderMail({
      customerName: order.customerName,
      orderNumber: order.orderNumber,
      contestName: order.contestName,
      totalAmount: order.totalAmount,
      confirmationNumber: order.konbiniConfirmationNumber,
      dueAt: due.end,
      voucherUrl: order.konbiniVoucherUrl,
      statusUrl: orderStatusUrl(order.statusToken),
      stopUrl,
    });
  const label = numberLabelOf(order);
  return downloadReminderMail({
    customerName: order.customerName,
    orderNumber: order.orderNumber,
    contestName: order.contestName,
    url: siteUrl(`/download/${due.pageId}`),
    expiresAt: due.end,
    videos: due.videos.map(
      (line) => `${line.category} / ${label} ${line.athleteNumber} ${line.athleteName}（${line.style}）`,
    ),
    stopUrl,
  });
}

/**
 * Queues one reminder with its stop link, unless the link was used since the pass looked (the
 * stop and this transaction are serialised). Null when nothing was queued. The outbox's expiry
 * is the end itself: a mail still waiting for SMTP then is never sent.
 */
function queueReminder(due: DueReminder): number | null {
  return db().transaction(
    (tx) => {
      const stopped = tx
        .select({ stoppedAt: orderReminders.stoppedAt })
        .from(orderReminders)
        .where(eq(orderReminders.orderId, due.order.id))
        .get()?.stoppedAt;
      if (stopped) return null;
      const stopUrl = reminderStopUrl(stopTokenOf(tx, due.order.id));
      return queueMail(
        {
          to: due.order.customerEmail,
          dedupeKey: reminderKey(due.kind, due.order.id),
          expiresAt: due.end,
          mail: mailOf(due, stopUrl),
        },
        tx,
      );
    },
    { behavior: "immediate" },
  );
}

const inReminderRange = and(
  gte(mailOutbox.dedupeKey, REMINDER_KEY_RANGE[0]),
  lt(mailOutbox.dedupeKey, REMINDER_KEY_RANGE[1]),
);

/** Reminders waiting in the outbox (SMTP down) whose cause lapsed are cancelled: paid, fetched, stopped. */
function cancelLapsedReminders(at: Date): number {
  const waiting = db()
    .select({ key: mailOutbox.dedupeKey })
    .from(mailOutbox)
    .where(and(inReminderRange, eq(mailOutbox.status, "pending")))
    .all()
    .flatMap(({ key }) => {
      const parsed = key ? parseReminderKey(key) : null;
      return parsed && key ? [{ ...parsed, key }] : [];
    });
  const wanted = stillWanted(waiting, at);
  return cancelQueuedMail(waiting.filter((_, index) => !wanted[index]).map(({ key }) => key));
}

export type ReminderPass = { queued: Record<ReminderKind, number>; cancelled: number };

/** One pass at `at` (the clock's now): lapsed reminders cancelled, due ones queued, each once. */
export function runReminderPass(at: Date = now()): ReminderPass {
  const cancelled = cancelLapsedReminders(at);
  const due = dueReminders(at);
  const keys = due.map((each) => reminderKey(each.kind, each.order.id));
  // Queued before (this pass's predecessors, or before a restart): not rendered again.
  const queuedBefore = new Set(
    keys.length === 0
      ? []
      : db()
          .select({ key: mailOutbox.dedupeKey })
          .from(mailOutbox)
          .where(inArray(mailOutbox.dedupeKey, keys))
          .all()
          .map(({ key }) => key),
  );
  const queued = Object.fromEntries(REMINDER_KINDS.map((kind) => [kind, 0])) as Record<ReminderKind, number>;
  due.forEach((each, index) => {
    if (queuedBefore.has(keys[index]!)) return;
    if (queueReminder(each) !== null) queued[each.kind]++;
  });
  return { queued, cancelled };
}

/**
 * Reminder mails the SMTP server took, by kind, for /metrics. Read from the outbox, whose rows
 * are kept: the count only grows, so it is a counter that survives a restart.
 */
export function sentReminderCounts(): Record<ReminderKind, number> {
  const start = REMINDER_KEY_RANGE[0].length + 1;
  const kind = sql<string>`substr(${mailOutbox.dedupeKey}, ${start}, instr(substr(${mailOutbox.dedupeKey}, ${start}), ':') - 1)`;
  const rows = db()
    .select({ kind, n: count() })
    .from(mailOutbox)
    .where(and(inReminderRange, eq(mailOutbox.status, "sent")))
    .groupBy(kind)
    .all();
  return Object.fromEntries(
    REMINDER_KINDS.map((each) => [each, rows.find((row) => row.kind === each)?.n ?? 0]),
  ) as Record<ReminderKind, number>;
}

// Remembered, so a dev-server reload reuses the loop instead of starting a second one.
const reminderLoop = remember("reminderLoop", (): { timer?: NodeJS.Timeout } => ({}));

/**
 * A check of another folder that rides on the pass (start-up wires it: its rule stands above this
 * folder): it runs with the same clock, at start-up and every interval, and says how many it did.
 */
export type PassCheck = { name: string; run: () => number };

/** Runs a pass now (start-up: what fell due while the server was down) and every interval after. */
export function startReminderLoop(intervalMs = REMINDER_PASS_INTERVAL_MS, checks: PassCheck[] = []): void {
  if (reminderLoop.timer) return;
  const pass = () => {
    for (const check of checks) {
      try {
        const done = check.run();
        if (done > 0) console.log(`[reminders] ${check.name}: ${done}`);
      } catch (error: unknown) {
        console.error(`[reminders] ${check.name} failed`, error);
      }
    }
    try {
      const { queued, cancelled } = runReminderPass();
      const total = Object.values(queued).reduce((sum, n) => sum + n, 0);
      if (total > 0)
        console.log(
          `[reminders] queued ${total} reminder(s): ${REMINDER_KINDS.map((kind) => `${kind} ${queued[kind]}`).join(", ")}`,
        );
      if (cancelled > 0) console.log(`[reminders] cancelled ${cancelled} waiting reminder(s) no longer due`);
    } catch (error: unknown) {
      console.error("[reminders] pass failed", error);
    }
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  reminderLoop.timer = timer;
}

export function stopReminderLoop(): void {
  clearInterval(reminderLoop.timer);
  reminderLoop.timer = undefined;
}
