import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { remember } from "../core/remember.server";
import { db, type Db, type Tx } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import type { RenderedMail } from "./layout.server";
import { sendMail } from "./transport.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * The mail outbox. A mail is written to `mail_outbox` first — in the same transaction
 * as the order or delivery that causes it — and then sent. A send that fails stays
 * queued with a next try time (backoff) and the retry loop sends it when SMTP is back.
 *
 * "Sent once": a sender claims a row with one UPDATE … WHERE status='pending' (or an
 * expired claim), so two loops, two processes or a double click cannot both send it.
 * The one gap: a crash after the SMTP server accepted the mail but before the row is
 * marked sent leaves the claim to expire, and the mail is sent once more (at most
 * once per crash). SMTP gives no way to ask whether a message was already accepted.
 */

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** Longer than nodemailer's connection + greeting + socket timeouts, so a live send is never taken over. */
export const CLAIM_LEASE_MS = 5 * MINUTE_MS;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 30 * MINUTE_MS;
/** About a day of retries at the longest interval before the mail is given up (and logged). */
export const MAX_ATTEMPTS = 60;
export const RETRY_INTERVAL_MS = 15_000;
const BATCH = 20;

export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export type OutgoingMail = {
  to: string;
  mail: RenderedMail;
  /** One logical mail, queued once (e.g. the confirmation of order 12). */
  dedupeKey?: string;
  /** A newer mail of the topic cancels the older unsent ones (e.g. a resent code). */
  topic?: string;
  /** Not sent after this (a verification code's expiry). */
  expiresAt?: Date;
};

/**
 * Writes a mail to the outbox, in `tx` when given. Returns its id, or null when a mail
 * with the same dedupe key is already queued (or sent).
 */
export function queueMail(outgoing: OutgoingMail, tx: Tx | Db = db()): number | null {
  const at = now();
  if (outgoing.topic) {
    tx.update(mailOutbox)
      .set({ status: "cancelled" })
      .where(and(eq(mailOutbox.topic, outgoing.topic), eq(mailOutbox.status, "pending")))
      .run();
  }
  const row = tx
    .insert(mailOutbox)
    .values({
      dedupeKey: outgoing.dedupeKey ?? null,
      topic: outgoing.topic ?? null,
      to: outgoing.to,
      subject: outgoing.mail.subject,
      text: outgoing.mail.text,
      html: outgoing.mail.html,
      nextAttemptAt: at,
      expiresAt: outgoing.expiresAt ?? null,
      createdAt: at,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id })
    .get();
  return row?.id ?? null;
}

/**
 * Cancels the mails still waiting under these keys (one being sent is left to finish): what they
 * say no longer holds (a reminder of a voucher since paid). Returns how many were cancelled.
 */
export function cancelQueuedMail(dedupeKeys: readonly string[], tx: Tx | Db = db()): number {
  if (dedupeKeys.length === 0) return 0;
  return tx
    .update(mailOutbox)
    .set({ status: "cancelled" })
    .where(and(inArray(mailOutbox.dedupeKey, [...dedupeKeys]), eq(mailOutbox.status, "pending")))
    .run().changes;
}

/** Takes the row for this sender, if it is due and nobody else holds it. */
function claim(id: number): OutboxRow | undefined {
  const at = now();
  return db()
    .update(mailOutbox)
    .set({
      status: "sending",
      attempts: sql`${mailOutbox.attempts} + 1`,
      claimedUntil: new Date(at.getTime() + CLAIM_LEASE_MS),
    })
    .where(
      and(
        eq(mailOutbox.id, id),
        or(
          and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, at)),
          and(eq(mailOutbox.status, "sending"), lte(mailOutbox.claimedUntil, at)),
        ),
      ),
    )
    .returning()
    .get();
}

export type SendOutcome = "sent" | "failed" | "not-claimed";

/** Sends one queued mail now, if it can be claimed. A failure leaves it queued for the retry loop. */
export async function sendQueuedMail(id: number): Promise<SendOutcome> {
  const row = claim(id);
  if (!row) return "not-claimed";
  if (row.expiresAt && row.expiresAt <= now()) {
    db()
      .update(mailOutbox)
      .set({ status: "cancelled", claimedUntil: null })
      .where(eq(mailOutbox.id, id))
      .run();
    return "not-claimed";
  }
  try {
    await sendMail(row.to, { subject: row.subject, text: row.text, html: row.html });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const retryAt = new Date(now().getTime() + retryDelayMs(row.attempts));
    const giveUp = row.attempts >= MAX_ATTEMPTS || (row.expiresAt !== null && row.expiresAt <= retryAt);
    db()
      .update(mailOutbox)
      .set({
        status: giveUp ? "failed" : "pending",
        lastError: message.slice(0, 500),
        nextAttemptAt: retryAt,
        claimedUntil: null,
      })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "sending")))
      .run();
    console.error(
      `[outbox] mail ${id} 「${row.subject}」 attempt ${row.attempts} failed${giveUp ? ", giving up" : `, next try ${retryAt.toISOString()}`}: ${message}`,
    );
    return "failed";
  }
  db()
    .update(mailOutbox)
    .set({ status: "sent", sentAt: now(), claimedUntil: null, lastError: null })
    .where(eq(mailOutbox.id, id))
    .run();
  return "sent";
}

/**
 * Sends a mail queued with its cause now, and logs (one way, naming `what`) when it could not go:
 * the mail stays in the outbox and the retry loop sends it, so the caller's work stands either way.
 * Never rejects, so a caller that does not wait for the mail server can leave it running (`void`).
 * "queued": left to the retry loop; "sent": sent now, or already in another sender's hands.
 */
export async function sendQueuedMailNow(id: number, what: string): Promise<"sent" | "queued"> {
  try {
    if ((await sendQueuedMail(id)) !== "failed") return "sent";
    console.error(`[mail] ${what} (mail ${id}) not sent now, queued for retry`);
  } catch (error) {
    console.error(`[mail] ${what} (mail ${id}) failed, queued for retry`, error);
  }
  return "queued";
}

/** Queues a mail and tries it at once; true when the SMTP server took it. Retried later otherwise. */
export async function sendThroughOutbox(outgoing: OutgoingMail): Promise<boolean> {
  const id = queueMail(outgoing);
  if (id === null) return false;
  return (await sendQueuedMail(id)) === "sent";
}

/** The retry loop, remembered so a dev-server reload reuses it. */
const outboxLoop = remember(
  "outboxLoop",
  (): {
    timer?: NodeJS.Timeout;
    /** The retry pass under way, if any: shutdown lets it finish the mail it is sending. */
    pass?: Promise<void>;
    /** Set by shutdown: a pass under way sends no further mail after the one in flight. */
    stopping?: boolean;
  } => ({}),
);

/** One pass of the retry loop: sends every due mail it can claim. */
export async function retryDueMail(): Promise<{ sent: number; failed: number }> {
  const at = now();
  db()
    .update(mailOutbox)
    .set({ status: "cancelled" })
    .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.expiresAt, at)))
    .run();
  const due = db()
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, at)),
        and(eq(mailOutbox.status, "sending"), lte(mailOutbox.claimedUntil, at)),
      ),
    )
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(BATCH)
    .all();
  let sent = 0;
  let failed = 0;
  for (const { id } of due) {
    // Shutting down: the mail in flight is finished, the rest wait for the next start.
    if (outboxLoop.stopping) break;
    const outcome = await sendQueuedMail(id);
    if (outcome === "sent") sent++;
    if (outcome === "failed") failed++;
  }
  return { sent, failed };
}

/** How many mails wait to be sent (for the log and tests). */
export function pendingMailCount(): number {
  return (
    db()
      .select({ n: sql<number>`count(*)` })
      .from(mailOutbox)
      .where(inArray(mailOutbox.status, ["pending", "sending"]))
      .get()?.n ?? 0
  );
}

/** Starts the retry loop once per process (dev reloads reuse it); it never keeps the process alive. */
export function startOutboxRetryLoop(intervalMs = RETRY_INTERVAL_MS): void {
  if (outboxLoop.timer) return;
  const timer = setInterval(() => {
    if (outboxLoop.pass) return;
    outboxLoop.pass = retryDueMail()
      .then(({ sent }) => {
        if (sent > 0) console.log(`[outbox] sent ${sent} queued mail(s)`);
      })
      .catch((error: unknown) => console.error("[outbox] retry pass failed", error))
      .finally(() => {
        outboxLoop.pass = undefined;
      });
  }, intervalMs);
  timer.unref();
  outboxLoop.timer = timer;
}

/** Stops the loop; resolves once a pass under way has finished the mail it is sending (graceful shutdown). */
export async function stopOutboxRetryLoop(): Promise<void> {
  clearInterval(outboxLoop.timer);
  outboxLoop.timer = undefined;
  outboxLoop.stopping = true;
  try {
    await outboxLoop.pass;
  } finally {
    outboxLoop.stopping = false;
  }
}
