import { and, eq, isNull, lt, ne } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { checkouts, coupons, couponUses } from "../db/schema";
import { paymentProvider } from "../payments/index.server";
import { capRefusal, COUPON_HOLD_LEASE_MS, usesTaken } from "./coupons.server";

/**
 * A coupon's uses as payments take them. When a checkout's payment is prepared with a coupon, a
 * use is held for it in one immediate transaction that first counts every other use and hold:
 * of two checkouts racing for the last use, one holds it and the other is priced again without
 * the coupon before its payment is made (payment.server.ts). The hold becomes the order's use
 * when the payment is recorded.
 *
 * A hold is never simply dropped while its payment could still be made: once older than the
 * lease, a checkout that needs the use ends that payment at the provider first, and takes the
 * use only if the payment is really ended.
 */

export type HoldResult = { ok: true } | { ok: false; reason: "used_up" | "used_by_email" };

/** Holds a use of the coupon for the checkout (or renews its hold), if its caps leave one. */
export async function holdCouponUse(
  couponId: number,
  hold: { checkoutId: string; email: string; amount: number },
): Promise<HoldResult> {
  const first = tryHold(couponId, hold);
  if (first.ok) return first;
  // Full counting holds whose lease ran out: end their payments, then try once more.
  const released = await releaseStaleHolds(couponId);
  return released > 0 ? tryHold(couponId, hold) : first;
}

function tryHold(couponId: number, hold: { checkoutId: string; email: string; amount: number }): HoldResult {
  return db().transaction(
    (tx) => {
      const at = now();
      // The caps as they are now, read in the transaction that writes the hold.
      const coupon = tx.select().from(coupons).where(eq(coupons.id, couponId)).get();
      if (!coupon) return { ok: false, reason: "used_up" };
      const uses = usesTaken(couponId, { ...hold, at, staleHolds: true }, tx);
      const refusal = capRefusal(coupon, uses, hold.email);
      if (refusal) return { ok: false, reason: refusal };
      tx.insert(couponUses)
        .values({ couponId, ...hold, heldAt: at })
        .onConflictDoUpdate({
          target: [couponUses.couponId, couponUses.checkoutId],
          set: { email: hold.email, amount: hold.amount, heldAt: at },
          // A use already paid for stays as it is.
          where: isNull(couponUses.usedAt),
        })
        .run();
      return { ok: true as const };
    },
    { behavior: "immediate" },
  );
}

/**
 * Ends the payments of holds older than the lease and deletes the holds whose payment is ended.
 * A payment the provider will not end (paid, processing, a konbini voucher) keeps its hold, renewed,
 * so the pages (which leave out holds past the lease) stop offering the use it holds.
 */
async function releaseStaleHolds(couponId: number): Promise<number> {
  const leaseStart = new Date(now().getTime() - COUPON_HOLD_LEASE_MS);
  const stale = db()
    .select({ id: couponUses.id, checkoutId: couponUses.checkoutId, intentId: checkouts.paymentIntentId })
    .from(couponUses)
    .leftJoin(checkouts, eq(checkouts.id, couponUses.checkoutId))
    .where(
      and(eq(couponUses.couponId, couponId), isNull(couponUses.usedAt), lt(couponUses.heldAt, leaseStart)),
    )
    .all();
  let released = 0;
  for (const hold of stale) {
    const intent = hold.intentId ? await paymentProvider().cancelIntent(hold.intentId) : null;
    if (intent && (intent.status !== "canceled" || intent.konbini)) {
      // Its payment is alive: the hold counts again on every page, as a fresh one does.
      db().update(couponUses).set({ heldAt: now() }).where(eq(couponUses.id, hold.id)).run();
      continue;
    }
    db()
      .delete(couponUses)
      .where(and(eq(couponUses.id, hold.id), isNull(couponUses.usedAt)))
      .run();
    released++;
  }
  return released;
}

/**
 * The checkout's holds of coupons other than `keep` (every hold with null): its payment now
 * carries `keep` or no coupon, so a payment at another coupon's price can no longer be made.
 * Called once the provider has the new amount (preparePayment) and when the order is made; never
 * when the code is merely taken off, since the payment prepared at its price may still be paid.
 */
export function releaseOtherHolds(
  checkoutId: string,
  keep: number | null,
  writer: Pick<Tx, "delete"> = db(),
) {
  writer
    .delete(couponUses)
    .where(
      and(
        eq(couponUses.checkoutId, checkoutId),
        isNull(couponUses.usedAt),
        keep === null ? undefined : ne(couponUses.couponId, keep),
      ),
    )
    .run();
}

/**
 * The order's use, in the order's transaction: the checkout's hold becomes it, or (a payment
 * recorded without one, e.g. made again after a restore) a use is written. The money was taken at
 * the price shown, so a use is recorded even past the cap rather than the order refused.
 */
export function recordCouponUse(
  tx: Tx,
  use: { couponId: number; checkoutId: string; orderId: number; email: string; amount: number; at: Date },
) {
  const { couponId, checkoutId, orderId, email, amount, at } = use;
  tx.insert(couponUses)
    .values({ couponId, checkoutId, orderId, email, amount, heldAt: at, usedAt: at })
    .onConflictDoUpdate({
      target: [couponUses.couponId, couponUses.checkoutId],
      set: { orderId, email, amount, usedAt: at },
    })
    .run();
}
