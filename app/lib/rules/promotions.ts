import { formatDateTime, formatYenShort } from "./format";
import { MIN_CHARGE } from "./minimum-charge";
import { ORIENTATIONS, type Orientation } from "./pricing";

/**
 * The promotions rule: what an order's lines cost once a contest's promotions (早割, セット割,
 * まとめ割) and a coupon are applied. Pure and shared: the server decides with it at every step
 * and at payment (server/catalog/pricing.server.ts), the order form's live total runs the same
 * function in the browser.
 *
 * Every discount is written on the lines it comes off, so each line has the price actually paid
 * for it (a refund of a line gives back that price) and the lines add up to the total charged.
 * A discount never takes a line below 0 yen, and no discount takes an order below what a card
 * payment can be (MIN_CHARGE): a total is never negative and never above the list price.
 */

// The smallest charge and its note live on their own, so the pages that only show a stored
// breakdown (注文内容の確認, the payment page) do not load the promotions' pricing with them.
export { MIN_CHARGE, minimumChargeNote } from "./minimum-charge";

export const DISCOUNT_KINDS = ["early_bird", "set", "quantity", "coupon"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** What a discount is called wherever the customer sees it. */
export const DISCOUNT_NAMES: Record<Exclude<DiscountKind, "coupon">, string> = {
  early_bird: "早割",
  set: "セット割",
  quantity: "まとめ割",
};

export function couponDiscountName(code: string): string {
  return `クーポン（${code}）`;
}

/** One discount on one line (or, summed, on the order). */
export type Discount = { kind: DiscountKind; name: string; amount: number };

export const AMOUNT_KINDS = ["yen", "percent"] as const;
export type AmountKind = (typeof AMOUNT_KINDS)[number];

/** A contest's promotions; null where one is off. */
export type ContestPromotions = {
  /** A lower price per style for orders made before `endsAt` (ms since the epoch). */
  earlyBird: { prices: Record<Orientation, number | null>; endsAt: number } | null;
  /** Yen off each athlete ordered in both styles (縦 and 横 together). */
  setDiscount: number | null;
  /** From `minItems` videos in one order: yen or percent off every video. */
  quantity: { minItems: number; kind: AmountKind; value: number } | null;
};

export const NO_PROMOTIONS: ContestPromotions = { earlyBird: null, setDiscount: null, quantity: null };

/** A coupon as the rule needs it: the server has already checked its dates, contests and uses. */
export type CouponOffer = { code: string; kind: AmountKind; value: number; minTotal: number };

/** What the rule needs of a line: whose video, which style, at what list price. */
export type PromotionLine = { athleteId: number; orientation: Orientation; listPrice: number };

export type DiscountedLine<L> = L & { listPrice: number; price: number; discounts: Discount[] };

export type PromotionPricing<L> = {
  lines: DiscountedLine<L>[];
  /** The lines at their list prices. */
  listTotal: number;
  /** What is charged: the lines' prices after every discount. */
  total: number;
  /** Each discount summed over the lines, in the order they apply. */
  discounts: Discount[];
  /**
   * The coupon offered and whether it applied: `below_minimum` when the order is under its
   * minimum, `nothing_off` when the order is already at the smallest charge (it would take 0円 off).
   */
  coupon: { code: string; applied: boolean; refusal: "below_minimum" | "nothing_off" | null } | null;
};

/** Whether the early-bird prices still apply at `at` (ms): before their end, not at it. */
export function earlyBirdOpen(promotions: ContestPromotions, at: number): boolean {
  return promotions.earlyBird !== null && at < promotions.earlyBird.endsAt;
}

/** Said on the next step when the early-bird prices ended after the last one (the way a changed price is). */
export function earlyBirdEndedMessage(endsAt: number, before: number, after: number): string {
  return `早割は ${formatDateTime(endsAt)} に終了しました。合計金額が ${formatYenShort(before)} から ${formatYenShort(after)} に変わりましたので、金額をご確認ください。`;
}

/** Yen off `price`: a percent is rounded down (the customer never pays a fraction), never more than the price. */
export function amountOff(price: number, kind: AmountKind, value: number): number {
  const off = kind === "yen" ? value : Math.floor((price * value) / 100);
  return Math.max(0, Math.min(price, off));
}

type Working<L> = { line: L; index: number; price: number; discounts: Discount[] };

function take<L>(entry: Working<L>, discount: Discount) {
  const amount = Math.min(entry.price, discount.amount);
  if (amount <= 0) return;
  entry.price -= amount;
  const same = entry.discounts.find((d) => d.kind === discount.kind && d.name === discount.name);
  if (same) same.amount += amount;
  else entry.discounts.push({ ...discount, amount });
}

/**
 * Applies the contest's promotions at time `at`, then the coupon, to the lines. The result does
 * not depend on the order of the lines: lines of the same athlete and style are alike, and
 * anything split between lines is split by their prices, ties by athlete and style.
 */
export function applyPromotions<L extends PromotionLine>(
  lines: readonly L[],
  promotions: ContestPromotions,
  at: number,
  coupon: CouponOffer | null = null,
): PromotionPricing<L> {
  const work: Working<L>[] = lines.map((line, index) => ({
    line,
    index,
    price: Math.max(0, line.listPrice),
    discounts: [],
  }));

  // 早割: the style's early price where it is lower than the list price.
  if (promotions.earlyBird && earlyBirdOpen(promotions, at)) {
    const { prices } = promotions.earlyBird;
    for (const entry of work) {
      const early = prices[entry.line.orientation];
      if (early !== null && early < entry.price)
        take(entry, { kind: "early_bird", name: DISCOUNT_NAMES.early_bird, amount: entry.price - early });
    }
  }

  // セット割: each athlete's 縦 paired with a 横, the pair's discount split between its two lines.
  if (promotions.setDiscount && promotions.setDiscount > 0) {
    const byAthlete = new Map<number, Record<Orientation, Working<L>[]>>();
    for (const entry of work) {
      const styles = byAthlete.get(entry.line.athleteId) ?? { vertical: [], horizontal: [] };
      styles[entry.line.orientation].push(entry);
      byAthlete.set(entry.line.athleteId, styles);
    }
    // Dearest with dearest, so the pairs do not depend on the lines' order.
    const dearestFirst = (a: Working<L>, b: Working<L>) =>
      b.price - a.price || b.line.listPrice - a.line.listPrice;
    for (const { vertical, horizontal } of byAthlete.values()) {
      vertical.sort(dearestFirst);
      horizontal.sort(dearestFirst);
      for (let pair = 0; pair < Math.min(vertical.length, horizontal.length); pair++) {
        const [v, h] = [vertical[pair]!, horizontal[pair]!];
        const amount = Math.min(promotions.setDiscount, v.price + h.price);
        const fromVertical = Math.min(v.price, Math.max(Math.floor(amount / 2), amount - h.price));
        const discount = { kind: "set" as const, name: DISCOUNT_NAMES.set };
        take(v, { ...discount, amount: fromVertical });
        take(h, { ...discount, amount: amount - fromVertical });
      }
    }
  }

  // まとめ割: from N videos in the order, off every video.
  const { quantity } = promotions;
  if (quantity && quantity.value > 0 && lines.length >= quantity.minItems) {
    for (const entry of work)
      take(entry, {
        kind: "quantity",
        name: DISCOUNT_NAMES.quantity,
        amount: amountOff(entry.price, quantity.kind, quantity.value),
      });
  }

  keepPayable(work);

  // The coupon: off the order as it now stands, split over the lines by their prices.
  let couponResult: PromotionPricing<L>["coupon"] = null;
  if (coupon) {
    const subtotal = work.reduce((sum, entry) => sum + entry.price, 0);
    if (subtotal < coupon.minTotal) {
      couponResult = { code: coupon.code, applied: false, refusal: "below_minimum" };
    } else {
      const amount = Math.min(
        amountOff(subtotal, coupon.kind, coupon.value),
        Math.max(0, subtotal - MIN_CHARGE),
      );
      // A coupon that would take nothing off is not used up on the order.
      if (amount > 0) spread(work, amount, { kind: "coupon", name: couponDiscountName(coupon.code) });
      couponResult = { code: coupon.code, applied: amount > 0, refusal: amount > 0 ? null : "nothing_off" };
    }
  }

  const priced = work.map((entry) => ({
    ...entry.line,
    listPrice: entry.line.listPrice,
    price: entry.price,
    discounts: entry.discounts,
  }));
  return {
    lines: priced,
    listTotal: priced.reduce((sum, line) => sum + line.listPrice, 0),
    total: priced.reduce((sum, line) => sum + line.price, 0),
    discounts: summedDiscounts(priced),
    coupon: couponResult,
  };
}

/**
 * The contest's promotions never take a payable order below the smallest card charge either: what
 * is missing is given back from the discounts applied last (まとめ割, then セット割, then 早割), line
 * by line in an order of the lines' own (so it does not depend on the order they were chosen in).
 */
function keepPayable<L extends PromotionLine>(work: Working<L>[]) {
  const listTotal = work.reduce((sum, entry) => sum + Math.max(0, entry.line.listPrice), 0);
  let short = Math.min(MIN_CHARGE, listTotal) - work.reduce((sum, entry) => sum + entry.price, 0);
  if (short <= 0) return;
  const byLine = [...work].sort(
    (a, b) =>
      a.line.athleteId - b.line.athleteId ||
      ORIENTATIONS.indexOf(a.line.orientation) - ORIENTATIONS.indexOf(b.line.orientation) ||
      b.line.listPrice - a.line.listPrice ||
      a.index - b.index,
  );
  for (const kind of ["quantity", "set", "early_bird"] as const)
    for (const entry of byLine) {
      const discount = entry.discounts.find((d) => d.kind === kind);
      if (!discount || short <= 0) continue;
      const back = Math.min(discount.amount, short);
      discount.amount -= back;
      entry.price += back;
      short -= back;
      if (discount.amount === 0) entry.discounts.splice(entry.discounts.indexOf(discount), 1);
    }
}

/**
 * `amount` split over the lines in proportion to their prices (largest remainders first), so the
 * parts add up to it exactly and no line goes below 0.
 */
function spread<L extends PromotionLine>(
  work: Working<L>[],
  amount: number,
  discount: Omit<Discount, "amount">,
) {
  const subtotal = work.reduce((sum, entry) => sum + entry.price, 0);
  if (amount <= 0 || subtotal <= 0) return;
  const shares = work.map((entry) => {
    const exact = (amount * entry.price) / subtotal;
    return { entry, whole: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = amount - shares.reduce((sum, share) => sum + share.whole, 0);
  const byRest = [...shares].sort(
    (a, b) =>
      b.rest - a.rest ||
      a.entry.line.athleteId - b.entry.line.athleteId ||
      ORIENTATIONS.indexOf(a.entry.line.orientation) - ORIENTATIONS.indexOf(b.entry.line.orientation) ||
      b.entry.price - a.entry.price ||
      b.entry.line.listPrice - a.entry.line.listPrice ||
      a.entry.index - b.entry.index,
  );
  for (const share of byRest) {
    if (left <= 0) break;
    if (share.whole < share.entry.price) {
      share.whole++;
      left--;
    }
  }
  for (const share of shares) take(share.entry, { ...discount, amount: share.whole });
}

/** The lines' discounts summed by name, in the order the kinds apply. */
export function summedDiscounts(lines: readonly { discounts: readonly Discount[] }[]): Discount[] {
  const sums: Discount[] = [];
  for (const line of lines)
    for (const discount of line.discounts) {
      const same = sums.find((d) => d.kind === discount.kind && d.name === discount.name);
      if (same) same.amount += discount.amount;
      else sums.push({ ...discount });
    }
  return sums.sort((a, b) => DISCOUNT_KINDS.indexOf(a.kind) - DISCOUNT_KINDS.indexOf(b.kind));
}
