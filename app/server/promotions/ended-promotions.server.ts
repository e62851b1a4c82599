import { earlyBirdEndedMessage, type CouponOffer } from "~/lib/rules/promotions";
import { priceItems } from "./order-pricing.server";
import { contestPromotionsOf } from "./contest-promotions.server";

/**
 * The early-bird prices ended between the checkout's last step (`since`) and now: the order now
 * costs more, and the page says why, as a changed price is explained at payment. Null when they
 * did not end in between or the order did not get them.
 */
export function earlyBirdEndedNotice(
  contestId: number,
  items: { category: string; athleteId: number; formatId: number }[],
  { coupon, since, at, total }: { coupon: CouponOffer | null; since: Date; at: Date; total: number },
): string | null {
  const endsAt = contestPromotionsOf(contestId).earlyBird?.endsAt;
  if (endsAt === undefined || !(since.getTime() < endsAt && endsAt <= at.getTime())) return null;
  const before = priceItems(contestId, items, { at: since, coupon });
  if (!before.ok || before.total >= total) return null;
  return earlyBirdEndedMessage(endsAt, before.total, total);
}
