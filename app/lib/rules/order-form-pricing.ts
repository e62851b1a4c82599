import { matchItem, type Orientation, type PricedAthlete, type PricedFormat } from "./pricing";
import { applyPromotions, type ContestPromotions } from "./promotions";

/**
 * The order form's items priced in the browser, from what the page's loader sent: the same rule
 * (applyPromotions) with the same inputs as the server's priceItems, so the live total is the
 * one the next step charges (tests/lib/rules/promotions-rule.test.ts checks they agree).
 */

export type FormOffer = { athletes: readonly PricedAthlete[]; formats: readonly PricedFormat[] };
export type FormItem = { category: string; athleteId: number | null; formatId: number | null };
/** A priced line remembers which item of the form it is. */
export type PricedFormItem = {
  index: number;
  athleteId: number;
  orientation: Orientation;
  listPrice: number;
};

/** An incomplete or unmatched item is not a line yet. */
export function priceFormItems(
  offer: FormOffer,
  items: readonly FormItem[],
  promotions: ContestPromotions,
  at: number,
) {
  const lines = items.flatMap((item, index): PricedFormItem[] => {
    const match = matchItem(offer, item);
    return match.ok
      ? [
          {
            index,
            athleteId: match.athlete.id,
            orientation: match.format.orientation,
            listPrice: match.price,
          },
        ]
      : [];
  });
  return applyPromotions(lines, promotions, at);
}
