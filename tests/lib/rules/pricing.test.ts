import { describe, expect, it } from "vitest";
import { itemPrice, matchItem, MAX_ORDER_ITEMS, orderTotal, orientationAt } from "~/lib/rules/pricing";
import { orderFormSchema } from "~/lib/schemas/order-schemas";

const offer = {
  athletes: [{ id: 1, category: "A部門", verticalPrice: 3000, horizontalPrice: 4500 }],
  formats: [
    { id: 10, orientation: "vertical" as const },
    { id: 11, orientation: "horizontal" as const },
  ],
};

describe("the price rule (lib/pricing, shared by the server and the order form)", () => {
  it("sells the first format at the vertical price, the second at the horizontal one, a third not at all", () => {
    expect([0, 1, 2].map(orientationAt)).toEqual(["vertical", "horizontal", null]);
    expect(itemPrice(offer, { category: "A部門", athleteId: 1, formatId: 10 })).toBe(3000);
    expect(itemPrice(offer, { category: "A部門", athleteId: 1, formatId: 11 })).toBe(4500);
  });

  it("names what does not match, in the order the server reports it", () => {
    expect(matchItem(offer, { category: "A部門", athleteId: 2, formatId: 12 })).toEqual({
      ok: false,
      problem: "athlete",
    });
    expect(matchItem(offer, { category: "B部門", athleteId: 1, formatId: 12 })).toEqual({
      ok: false,
      problem: "category",
    });
    expect(matchItem(offer, { category: "A部門", athleteId: 1, formatId: 12 })).toEqual({
      ok: false,
      problem: "format",
    });
    expect(itemPrice(offer, { category: "", athleteId: null, formatId: null })).toBeNull();
  });

  it("totals the priced items, an unpriced one counting as nothing", () => {
    expect(orderTotal([3000, null, 4500])).toBe(7500);
    expect(orderTotal([])).toBe(0);
  });

  it("refuses more than the item limit in one order", () => {
    const item = { category: "A部門", athleteId: "1", formatId: "10" };
    expect(
      orderFormSchema.safeParse({ items: Array.from({ length: MAX_ORDER_ITEMS }, () => item) }).success,
    ).toBe(true);
    const tooMany = orderFormSchema.safeParse({
      items: Array.from({ length: MAX_ORDER_ITEMS + 1 }, () => item),
    });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toBe("一度にご注文いただけるのは50件までです");
  });
});
