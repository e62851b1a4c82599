import { matchItem } from "~/lib/rules/pricing";
import { applyPromotions, type CouponOffer, type PromotionPricing } from "~/lib/rules/promotions";
import { now } from "../core/clock.server";
import type { CheckoutItem, PricedLine } from "../db/schema";
import { orderFormOptions } from "../catalog/pricing.server";
import { contestPromotionsOf } from "./contest-promotions.server";

/**
 * What an order costs, decided on the server from the current rows: the athletes' prices
 * (catalog/pricing.server.ts) with the contest's promotions applied. The browser's total is only a
 * preview.
 */

export type PricingResult =
  | ({ ok: true } & Omit<PromotionPricing<PricedLine>, "lines"> & { lines: PricedLine[] })
  | { ok: false; message: string; index: number };

const REFUSALS = {
  athlete: "選択された選手は現在ご注文いただけません",
  category: "選手と部門の組み合わせが正しくありません",
  format: "選択された動画スタイルはご注文いただけません",
} as const;

/**
 * Prices a complete order on the server from the athletes' current prices and the contest's
 * promotions at `at` (lib/rules/promotions.ts), with the coupon when one is given (already
 * checked: promotions/coupons.server.ts). Refuses an athlete of another contest, one not on
 * sale, a category that does not match, or a format that cannot be ordered: a tampered form
 * gets a message, never a price it chose.
 */
export function priceItems(
  contestId: number,
  items: { category: string; athleteId: number; formatId: number }[],
  { at = now(), coupon = null }: { at?: Date; coupon?: CouponOffer | null } = {},
): PricingResult {
  const options = orderFormOptions(contestId);
  const lines: Omit<PricedLine, "price" | "discounts">[] = [];
  for (const [index, item] of items.entries()) {
    const match = matchItem(options, item);
    if (!match.ok) return { ok: false, index, message: REFUSALS[match.problem] };
    const { athlete, format } = match;
    lines.push({
      category: athlete.category,
      athleteId: athlete.id,
      athleteNumber: athlete.number,
      athleteName: athlete.name,
      formatId: format.id,
      style: format.name,
      orientation: format.orientation,
      listPrice: match.price,
    });
  }
  return { ok: true, ...applyPromotions(lines, contestPromotionsOf(contestId), at.getTime(), coupon) };
}

/** The draft's items that are complete, typed for pricing. */
export function completeItems(items: CheckoutItem[]) {
  return items.flatMap((item) =>
    item.category && item.athleteId && item.formatId
      ? [{ category: item.category, athleteId: item.athleteId, formatId: item.formatId }]
      : [],
  );
}
