/**
 * The price rule, shared by the server (which alone decides what an order costs) and the order
 * form's live total in the browser. Pure: the server reads the prices and formats from the
 * database (server/catalog/pricing.server.ts) and passes them in.
 */

/**
 * An athlete has two prices, vertical and horizontal. The contest's first video format (縦 by
 * default) sells at the vertical price, the second (横) at the horizontal one; a third format has
 * no price, so it is not offered on the order form.
 */
export const ORIENTATIONS = ["vertical", "horizontal"] as const;

export type Orientation = (typeof ORIENTATIONS)[number];

/** The names the two prices go by where the contest's formats do not name them. */
export const ORIENTATION_LABELS: Record<Orientation, string> = { vertical: "縦", horizontal: "横" };

/** The orientation of the format at this place in the contest's order (0 = first), or null: it has no price. */
export function orientationAt(position: number): Orientation | null {
  return ORIENTATIONS[position] ?? null;
}

/** Charged when an athlete has no price for the chosen format. */
export const FALLBACK_PRICE = 3500;

/** One order holds at most this many items. */
export const MAX_ORDER_ITEMS = 50;

export type PricedAthlete = { id: number; category: string; verticalPrice: number; horizontalPrice: number };
export type PricedFormat = { id: number; orientation: Orientation };

/** The price of one line: the athlete's price for the format's orientation. */
export function linePrice(
  athlete: Pick<PricedAthlete, "verticalPrice" | "horizontalPrice">,
  format: Pick<PricedFormat, "orientation">,
): number {
  return format.orientation === "vertical" ? athlete.verticalPrice : athlete.horizontalPrice;
}

/** What each orderable format costs for this athlete, in the contest's format order (said under the number list for the chosen athlete). */
export function athletePrices<F extends PricedFormat & { name: string }>(
  athlete: Pick<PricedAthlete, "verticalPrice" | "horizontalPrice">,
  formats: readonly F[],
): { format: F; price: number }[] {
  return formats.map((format) => ({ format, price: linePrice(athlete, format) }));
}

export type ItemMatch<A extends PricedAthlete, F extends PricedFormat> =
  | { ok: true; athlete: A; format: F; price: number }
  | { ok: false; problem: "athlete" | "category" | "format" };

/**
 * An item of the form against what the contest offers: the athlete must be one on offer and of
 * the chosen category, the format one that has a price.
 */
export function matchItem<A extends PricedAthlete, F extends PricedFormat>(
  offer: { athletes: readonly A[]; formats: readonly F[] },
  item: { category: string; athleteId: number | null; formatId: number | null },
): ItemMatch<A, F> {
  const athlete = offer.athletes.find((a) => a.id === item.athleteId);
  if (!athlete) return { ok: false, problem: "athlete" };
  if (athlete.category !== item.category) return { ok: false, problem: "category" };
  const format = offer.formats.find((f) => f.id === item.formatId);
  if (!format) return { ok: false, problem: "format" };
  return { ok: true, athlete, format, price: linePrice(athlete, format) };
}

/** The price of an item as chosen so far, or null while it is incomplete or does not match. */
export function itemPrice(
  offer: { athletes: readonly PricedAthlete[]; formats: readonly PricedFormat[] },
  item: { category: string; athleteId: number | null; formatId: number | null },
): number | null {
  const match = matchItem(offer, item);
  return match.ok ? match.price : null;
}

/** The order's total; an item not yet priced counts as nothing. */
export function orderTotal(prices: readonly (number | null)[]): number {
  return prices.reduce<number>((sum, price) => sum + (price ?? 0), 0);
}
