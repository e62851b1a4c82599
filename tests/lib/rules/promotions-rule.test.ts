import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyPromotions,
  MIN_CHARGE,
  minimumChargeNote,
  NO_PROMOTIONS,
  type ContestPromotions,
  type CouponOffer,
  type PromotionLine,
} from "~/lib/rules/promotions";

/*
 * The price rule with promotions (lib/rules/promotions.ts), which the server decides with and the
 * order form's live total runs in the browser. Properties over any lines, promotions and coupon,
 * then the cases the shop names.
 */

const END = Date.UTC(2026, 10, 30, 14, 59); // 2026/11/30 23:59 in Japan

const lineArb: fc.Arbitrary<PromotionLine> = fc.record({
  athleteId: fc.integer({ min: 1, max: 6 }),
  orientation: fc.constantFrom("vertical" as const, "horizontal" as const),
  listPrice: fc.integer({ min: 0, max: 20_000 }),
});

/** Yen (1–30,000) or percent (1–100) off. */
const amountArb = fc
  .record({
    kind: fc.constantFrom("yen" as const, "percent" as const),
    value: fc.integer({ min: 1, max: 30_000 }),
  })
  .map((amount) => (amount.kind === "percent" ? { ...amount, value: 1 + (amount.value % 100) } : amount));

const promotionsArb: fc.Arbitrary<ContestPromotions> = fc.record({
  earlyBird: fc.option(
    fc.record({
      prices: fc.record({
        vertical: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
        horizontal: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
      }),
      endsAt: fc.constant(END),
    }),
    { nil: null },
  ),
  setDiscount: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: null }),
  quantity: fc.option(
    fc
      .tuple(amountArb, fc.integer({ min: 2, max: 6 }))
      .map(([amount, minItems]) => ({ ...amount, minItems })),
    { nil: null },
  ),
});

const couponArb: fc.Arbitrary<CouponOffer | null> = fc.option(
  fc
    .tuple(amountArb, fc.integer({ min: 0, max: 40_000 }))
    .map(([amount, minTotal]) => ({ code: "TEST10", ...amount, minTotal })),
  { nil: null },
);

const atArb = fc.integer({ min: END - 3_600_000, max: END + 3_600_000 });

describe("the price rule with promotions (fast-check)", () => {
  it("a total is never negative, never above the list price, and its lines add up to it", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 12 }),
        promotionsArb,
        couponArb,
        atArb,
        (lines, p, c, at) => {
          const priced = applyPromotions(lines, p, at, c);
          expect(priced.total).toBeGreaterThanOrEqual(0);
          expect(priced.total).toBeLessThanOrEqual(priced.listTotal);
          expect(priced.listTotal).toBe(lines.reduce((sum, line) => sum + line.listPrice, 0));
          expect(priced.lines.reduce((sum, line) => sum + line.price, 0)).toBe(priced.total);
          for (const line of priced.lines) {
            expect(line.price).toBeGreaterThanOrEqual(0);
            expect(line.price).toBe(line.listPrice - line.discounts.reduce((sum, d) => sum + d.amount, 0));
            for (const discount of line.discounts) expect(discount.amount).toBeGreaterThan(0);
          }
          const discounted = priced.discounts.reduce((sum, d) => sum + d.amount, 0);
          expect(priced.listTotal - discounted).toBe(priced.total);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("does not depend on the order of the lines", () => {
    fc.assert(
      fc.property(
        fc
          .array(lineArb, { minLength: 1, maxLength: 12 })
          .chain((lines) =>
            fc.tuple(fc.constant(lines), fc.shuffledSubarray(lines, { minLength: lines.length })),
          ),
        promotionsArb,
        couponArb,
        atArb,
        ([lines, shuffled], p, c, at) => {
          const a = applyPromotions(lines, p, at, c);
          const b = applyPromotions(shuffled, p, at, c);
          expect(b.total).toBe(a.total);
          expect(b.discounts).toEqual(a.discounts);
          expect(b.coupon).toEqual(a.coupon);
          // Each line's price as a set: lines alike cost alike whatever their place.
          const prices = (x: typeof a) =>
            x.lines.map((l) => `${l.athleteId}:${l.orientation}:${l.listPrice}:${l.price}`).sort();
          expect(prices(b)).toEqual(prices(a));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("no discount takes a payable order below the smallest card charge, and a coupon that takes nothing off is not applied", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 12 }),
        promotionsArb,
        couponArb,
        atArb,
        (lines, p, c, at) => {
          const without = applyPromotions(lines, p, at, null);
          const withCoupon = applyPromotions(lines, p, at, c);
          const listTotal = lines.reduce((sum, line) => sum + line.listPrice, 0);
          expect(without.total).toBeGreaterThanOrEqual(Math.min(MIN_CHARGE, listTotal));
          expect(withCoupon.total).toBeGreaterThanOrEqual(Math.min(MIN_CHARGE, listTotal));
          if (withCoupon.coupon?.applied) expect(withCoupon.total).toBeLessThan(without.total);
          else expect(withCoupon.total).toBe(without.total);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("the price rule: the shop's cases", () => {
  const v = (athleteId: number, listPrice = 3000): PromotionLine => ({
    athleteId,
    orientation: "vertical",
    listPrice,
  });
  const h = (athleteId: number, listPrice = 4500): PromotionLine => ({
    athleteId,
    orientation: "horizontal",
    listPrice,
  });

  it("早割: the style's early price until its end, not at it; never above the athlete's own price", () => {
    const p: ContestPromotions = {
      ...NO_PROMOTIONS,
      earlyBird: { prices: { vertical: 2500, horizontal: 5000 }, endsAt: END },
    };
    const before = applyPromotions([v(1), h(1)], p, END - 1);
    expect(before.lines.map((l) => l.price)).toEqual([2500, 4500]);
    expect(before.discounts).toEqual([{ kind: "early_bird", name: "早割", amount: 500 }]);
    expect(applyPromotions([v(1), h(1)], p, END).total).toBe(7500);
  });

  it("セット割: once per athlete in both styles, split over the pair; a lone style gets none", () => {
    const p: ContestPromotions = { ...NO_PROMOTIONS, setDiscount: 1001 };
    const priced = applyPromotions([v(1), h(1), v(2), v(1)], p, END);
    expect(priced.total).toBe(3000 + 4500 + 3000 + 3000 - 1001);
    expect(priced.lines[0]!.discounts).toEqual([{ kind: "set", name: "セット割", amount: 500 }]);
    expect(priced.lines[1]!.discounts).toEqual([{ kind: "set", name: "セット割", amount: 501 }]);
    expect(priced.lines[2]!.discounts).toEqual([]);
    expect(priced.lines[3]!.discounts).toEqual([]);
  });

  it("まとめ割: from N videos, yen or percent (rounded down) off each", () => {
    const yen: ContestPromotions = { ...NO_PROMOTIONS, quantity: { minItems: 3, kind: "yen", value: 300 } };
    expect(applyPromotions([v(1), h(1)], yen, END).total).toBe(7500);
    expect(applyPromotions([v(1), h(1), v(2)], yen, END).total).toBe(10500 - 900);
    const percent: ContestPromotions = {
      ...NO_PROMOTIONS,
      quantity: { minItems: 2, kind: "percent", value: 15 },
    };
    const priced = applyPromotions([v(1, 3333), h(1, 4500)], percent, END);
    expect(priced.lines.map((l) => l.price)).toEqual([3333 - 499, 4500 - 675]);
  });

  it("the coupon comes last, off the order after the contest's promotions, and checks its minimum there", () => {
    const p: ContestPromotions = { ...NO_PROMOTIONS, setDiscount: 1500 };
    const coupon: CouponOffer = { code: "SPRING10", kind: "percent", value: 10, minTotal: 6000 };
    const priced = applyPromotions([v(1), h(1)], p, END, coupon);
    expect(priced.total).toBe(6000 - 600);
    expect(priced.coupon).toEqual({ code: "SPRING10", applied: true, refusal: null });
    expect(priced.discounts.map((d) => d.name)).toEqual(["セット割", "クーポン（SPRING10）"]);
    const under = applyPromotions([v(1)], p, END, coupon);
    expect(under.coupon).toEqual({ code: "SPRING10", applied: false, refusal: "below_minimum" });
    expect(under.total).toBe(3000);
  });

  it("promotions stop at the smallest card charge: what is missing comes back from まとめ割 first", () => {
    const p: ContestPromotions = {
      earlyBird: { prices: { vertical: 1, horizontal: null }, endsAt: END },
      setDiscount: null,
      quantity: { minItems: 2, kind: "yen", value: 5000 },
    };
    const priced = applyPromotions([v(1), v(2)], p, END - 1);
    expect(priced.total).toBe(MIN_CHARGE);
    // 早割 took each 3,000円 line to 1円 and まとめ割 the rest: まとめ割 is given back whole, then 48円 of 早割.
    expect(priced.discounts).toEqual([{ kind: "early_bird", name: "早割", amount: 6000 - MIN_CHARGE }]);
    // Already at the smallest charge: a coupon takes nothing and is not applied.
    const coupon: CouponOffer = { code: "ZERO", kind: "percent", value: 50, minTotal: 0 };
    expect(applyPromotions([v(1), v(2)], p, END - 1, coupon).coupon).toEqual({
      code: "ZERO",
      applied: false,
      refusal: "nothing_off",
    });
  });

  it("a discount stopped at the smallest card charge says so: a 100 % coupon leaves 50円 and its reason", () => {
    const full: CouponOffer = { code: "FREE", kind: "percent", value: 100, minTotal: 0 };
    const priced = applyPromotions([v(1), h(1)], NO_PROMOTIONS, END, full);
    expect(priced.total).toBe(MIN_CHARGE);
    expect(minimumChargeNote(priced)).toBe("お支払いは最低50円からのため、割引は7,450円までとなります。");
    // Promotions alone stopped there say it too; a discount that leaves more, or none, says nothing.
    const quantity: ContestPromotions = {
      ...NO_PROMOTIONS,
      quantity: { minItems: 1, kind: "percent", value: 100 },
    };
    expect(minimumChargeNote(applyPromotions([v(1)], quantity, END))).toBe(
      "お支払いは最低50円からのため、割引は2,950円までとなります。",
    );
    const tenPercent: CouponOffer = { ...full, value: 10 };
    expect(minimumChargeNote(applyPromotions([v(1), h(1)], NO_PROMOTIONS, END, tenPercent))).toBeNull();
    expect(minimumChargeNote(applyPromotions([v(1, MIN_CHARGE)], NO_PROMOTIONS, END))).toBeNull();
  });
});
