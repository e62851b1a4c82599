import { and, eq, ne, sql } from "drizzle-orm";
import { normaliseCouponCode } from "~/lib/rules/coupons";
import { couponRefusalMessage, type CouponRefusal } from "./coupon-refusals.server";
import type { CouponOffer } from "~/lib/rules/promotions";
import { db, type Tx } from "../db/client.server";
import { coupons, couponUses } from "../db/schema";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Whether a coupon may be used by a checkout now: its dates, contests, whether it is on, and its
 * caps on uses in all and per e-mail address. The uses it counts are the paid orders' (a konbini
 * order whose voucher expired gives its use back) and the holds other checkouts took when their
 * payment was prepared (coupon-uses.server.ts), so a use being paid for is not offered twice.
 */

export type Coupon = typeof coupons.$inferSelect;

/** How long a prepared payment's hold counts for others' pages (it is ended before it is given up, coupon-uses). */
export const COUPON_HOLD_LEASE_MS = 30 * MINUTE_MS;

export type CouponCheck =
  | { ok: true; coupon: Coupon; offer: CouponOffer }
  | { ok: false; reason: CouponRefusal; message: string; coupon: Coupon | null };

export function findCoupon(typed: string, reader: Pick<Tx, "select"> = db()): Coupon | undefined {
  const code = normaliseCouponCode(typed);
  return reader.select().from(coupons).where(eq(coupons.code, code)).get();
}

/** The coupon's terms as the price rule takes them. */
export function couponOffer(coupon: Coupon): CouponOffer {
  return { code: coupon.code, kind: coupon.kind, value: coupon.value, minTotal: coupon.minTotal };
}

export type UseCount = { all: number; byEmail: number };

/**
 * Uses taken by checkouts other than `checkoutId`: paid orders' (not an expired voucher's), and
 * holds. `staleHolds` false leaves out holds older than the lease: a page shows the coupon
 * available when only an abandoned payment holds it, and the payment step ends that one first.
 */
export function usesTaken(
  couponId: number,
  {
    checkoutId,
    email,
    at,
    staleHolds,
  }: { checkoutId: string; email: string | null; at: Date; staleHolds: boolean },
  reader: Pick<Tx, "select"> = db(),
): UseCount {
  const leaseStart = at.getTime() - COUPON_HOLD_LEASE_MS;
  const counts = staleHolds
    ? sql`1`
    : sql`(${couponUses.usedAt} IS NOT NULL OR ${couponUses.heldAt} >= ${leaseStart})`;
  const row = reader
    .select({
      all: sql<number>`count(*)`,
      byEmail: sql<number>`coalesce(sum(${couponUses.email} = ${email ?? ""}), 0)`,
    })
    .from(couponUses)
    .where(
      and(
        eq(couponUses.couponId, couponId),
        ne(couponUses.checkoutId, checkoutId),
        counts,
        sql`NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ${couponUses.orderId} AND o.payment_status = 'expired')`,
      ),
    )
    .get();
  return { all: Number(row?.all ?? 0), byEmail: Number(row?.byEmail ?? 0) };
}

/** Why the coupon is refused by its caps given these uses, or null. */
export function capRefusal(
  coupon: Coupon,
  uses: UseCount,
  email: string | null,
): "used_up" | "used_by_email" | null {
  if (coupon.maxUses !== null && uses.all >= coupon.maxUses) return "used_up";
  if (email && coupon.maxUsesPerEmail !== null && uses.byEmail >= coupon.maxUsesPerEmail)
    return "used_by_email";
  return null;
}

/**
 * Checks a typed code for a checkout of `contestId` at `at`. The minimum total is the price
 * rule's to check (it knows the total after the contest's promotions).
 */
export function checkCoupon(
  typed: string,
  context: { contestId: number; checkoutId: string; email: string | null; at: Date },
  reader: Pick<Tx, "select"> = db(),
): CouponCheck {
  const coupon = findCoupon(typed, reader);
  const refuse = (reason: CouponRefusal): CouponCheck => ({
    ok: false,
    reason,
    coupon: coupon ?? null,
    message: couponRefusalMessage(reason, coupon ?? {}),
  });
  if (!coupon) return refuse("unknown");
  if (coupon.disabledAt) return refuse("disabled");
  if (coupon.validFrom && context.at < coupon.validFrom) return refuse("not_started");
  if (coupon.validUntil && context.at >= coupon.validUntil) return refuse("expired");
  if (coupon.contestIds && !coupon.contestIds.includes(context.contestId)) return refuse("other_contest");
  const uses = usesTaken(coupon.id, { ...context, staleHolds: false }, reader);
  const cap = capRefusal(coupon, uses, context.email);
  if (cap) return refuse(cap);
  return { ok: true, coupon, offer: couponOffer(coupon) };
}
