import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { checkouts, contests, type CheckoutItem } from "../db/schema";
import type { ShopSession } from "../http/session.server";

export type Checkout = typeof checkouts.$inferSelect;

/** The session's open checkout (not yet paid), if any. */
export function currentCheckout(session: ShopSession): Checkout | null {
  const id = session.get("checkoutId");
  if (!id) return null;
  const row = db().select().from(checkouts).where(eq(checkouts.id, id)).get();
  return row && row.status !== "paid" && row.status !== "closed" ? row : null;
}

/**
 * Saves the order form's items as the session's draft for this contest. A draft of
 * another contest is replaced. Any change to the items sends the customer back
 * through e-mail verification's price check (the payment snapshot is dropped).
 */
export function saveDraft(session: ShopSession, contestId: number, items: CheckoutItem[]): Checkout {
  const existing = currentCheckout(session);
  const at = now();
  if (existing) {
    const sameContest = existing.contestId === contestId;
    return db()
      .update(checkouts)
      .set({
        contestId,
        items,
        pricedLines: null,
        amount: null,
        updatedAt: at,
        ...(sameContest
          ? {}
          : { customerEmail: null, customerName: null, emailVerifiedAt: null, status: "draft" as const }),
      })
      .where(eq(checkouts.id, existing.id))
      .returning()
      .get();
  }
  const created = db()
    .insert(checkouts)
    .values({
      id: crypto.randomBytes(16).toString("base64url"),
      contestId,
      items,
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get();
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
