import crypto from "node:crypto";
import { and, eq, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { prepared } from "../db/prepared.server";
import { checkouts, contests, type CheckoutItem } from "../db/schema";
import type { ShopSession } from "../http/session.server";
import { hitOriginLimit } from "../http/rate-limit.server";
import { HOUR_MS, DAY_MS } from "~/lib/rules/tokyo-date";

export type Checkout = typeof checkouts.$inferSelect;

/** The session's open checkout (not yet paid), if any. */
export function currentCheckout(session: ShopSession): Checkout | null {
  const id = session.get("checkoutId");
  if (!id) return null;
  const row = prepared("checkout-by-id", (connection) =>
    connection
      .select()
      .from(checkouts)
      .where(eq(checkouts.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id });
  return row && row.status !== "paid" && row.status !== "closed" ? row : null;
}

/**
 * Saves the order form's items as the session's draft for this contest. A draft of another
 * contest is replaced (its customer step is asked again). The payment snapshot (amount and
 * priced lines) is left as it is: it is what a payment already started is charging, and a
 * payment that completes from an open payment page must still find the lines it paid for.
 * The payment page prices the new items again and moves the intent and the snapshot together.
 * A session without a draft starts one only within its address's limit (NEW_DRAFTS_PER_ADDRESS):
 * null when refused, and nothing is written.
 */
export function saveDraft(
  session: ShopSession,
  contestId: number,
  items: CheckoutItem[],
  request: Request,
): Checkout | null {
  const existing = currentCheckout(session);
  const at = now();
  if (existing) {
    const sameContest = existing.contestId === contestId;
    return db()
      .update(checkouts)
      .set({
        contestId,
        items,
        updatedAt: at,
        pricedAt: at,
        ...(sameContest
          ? {}
          : { customerEmail: null, customerName: null, emailVerifiedAt: null, status: "draft" as const }),
      })
      .where(eq(checkouts.id, existing.id))
      .returning()
      .get();
  }
  const { limit, windowMs } = NEW_DRAFTS_PER_ADDRESS;
  // The count and the draft in one transaction: one write to the database, not two, for each
  // parent of a burst (`npm run bench:server`, POST /order-form).
  const created = db().transaction(() => {
    if (!hitOriginLimit(request, "new-draft", limit, windowMs).allowed) return null;
    // Prepared once per connection: drizzle building the insert anew (and SQLite preparing it)
    // was a third of the post's own work (`npm run bench:profile`, PROFILE_ONLY="POST form").
    return prepared("draft-insert", (connection) =>
      connection
        .insert(checkouts)
        .values({
          id: sql.placeholder("id"),
          contestId: sql.placeholder("contestId"),
          items: sql.placeholder("items"),
          createdAt: sql.placeholder("at"),
          updatedAt: sql.placeholder("at"),
          pricedAt: sql.placeholder("at"),
        })
        .returning()
        .prepare(),
    ).get({ id: crypto.randomBytes(16).toString("base64url"), contestId, items, at });
  });
  if (created) session.set("checkoutId", created.id);
  return created ?? null;
}

/**
 * Starts a checkout over (too many wrong e-mail codes): the old one is closed, and a new
 * draft with the same contest and items takes its place in the session, so the order form
 * still shows what the customer chose. Nothing of the customer step (address, name,
 * password, verification) is carried over, and the new draft's wrong codes count from zero.
 */
export function restartCheckout(session: ShopSession, checkout: Checkout): Checkout {
  const at = now();
  const created = db().transaction(
    (tx) => {
      tx.update(checkouts)
        .set({ status: "closed", updatedAt: at })
        .where(eq(checkouts.id, checkout.id))
        .run();
      return tx
        .insert(checkouts)
        .values({
          id: crypto.randomBytes(16).toString("base64url"),
          contestId: checkout.contestId,
          items: checkout.items,
          createdAt: at,
          updatedAt: at,
        })
        .returning()
        .get();
    },
    { behavior: "immediate" },
  );
  session.set("checkoutId", created.id);
  return created;
}

export function checkoutContest(checkout: Checkout) {
  if (!checkout.contestId) return null;
  return db().select().from(contests).where(eq(contests.id, checkout.contestId)).get() ?? null;
}

export function updateCheckout(id: string, values: Partial<typeof checkouts.$inferInsert>) {
  return db()
    .update(checkouts)
    .set({ ...values, updatedAt: now() })
    .where(eq(checkouts.id, id))
    .returning()
    .get();
}

/** An unpaid draft is kept this long after its last change: a customer back within the week finds it. */
export const DRAFT_EXPIRY_MS = 7 * DAY_MS;
/** A draft whose payment was started waits longer, in case the payment still succeeds and must find it. */
export const STARTED_PAYMENT_EXPIRY_MS = 30 * DAY_MS;

/** Deletes unpaid checkouts past their expiry (run by the start-up clean-up loop). Returns how many. */
export function deleteExpiredDrafts(): number {
  const at = now().getTime();
  const lastChange = sql`coalesce(${checkouts.updatedAt}, ${checkouts.createdAt})`;
  return db()
    .delete(checkouts)
    .where(
      and(
        ne(checkouts.status, "paid"),
        or(
          and(isNull(checkouts.paymentIntentId), lt(lastChange, at - DRAFT_EXPIRY_MS)),
          and(isNotNull(checkouts.paymentIntentId), lt(lastChange, at - STARTED_PAYMENT_EXPIRY_MS)),
        ),
      ),
    )
    .run().changes;
}

/**
 * New drafts per client address (an IPv6 /64) per hour. Each order-form post without a draft
 * stores one, so without a limit a script fills the disk (decision 0021: *draft flood*). A
 * family on one home Wi-Fi starts one draft per browser and one more after each order paid, a
 * handful in an hour; 30 also leaves room for a club's parents ordering together behind one
 * address. Posts that change an existing draft are not counted, so nobody mid-order is stopped (saveDraft).
 * The address is always known now (the server's edge sets it), so the limit holds in every
 * TRUST_PROXY mode.
 */
export const NEW_DRAFTS_PER_ADDRESS = { limit: 30, windowMs: HOUR_MS };
