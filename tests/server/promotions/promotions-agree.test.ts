import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { priceFormItems, type FormOffer } from "~/lib/rules/order-form-pricing";
import type { ContestPromotions } from "~/lib/rules/promotions";
import { priceItems } from "~/server/promotions/order-pricing.server";
import { saveContestPromotions } from "~/server/promotions/contest-promotions.server";
import { callRoute } from "../../helpers/route";
import { seedContest } from "../../helpers/shop";

/*
 * The order form's live total and the server's price are the same for any choice of lines and
 * any promotions: the browser prices what the page's loader sent (through JSON, as a browser gets
 * it) with lib/rules/order-form-pricing.ts, the server with priceItems from the database.
 */

const shop = seedContest();

type OrderFormData = { options: FormOffer; promotions: ContestPromotions; pricedAt: number };

async function orderFormData(): Promise<OrderFormData> {
  const slug = contestSlug(shop.name);
  const route = await import("~/routes/storefront/order-form");
  const answer = await callRoute(
    route.loader,
    new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`),
    { contestSlug: slug },
  );
  // What the browser receives: the loader's data through JSON.
  return JSON.parse(JSON.stringify(answer.data)) as OrderFormData;
}

const amount = fc.oneof(
  fc.record({ kind: fc.constant("yen" as const), value: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 1, max: 90 }) }),
);

const settings = fc.record({
  earlyVertical: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  earlyHorizontal: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  endsInMinutes: fc.integer({ min: -60, max: 60 }),
  setDiscount: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  quantity: fc.option(fc.tuple(fc.integer({ min: 2, max: 5 }), amount), { nil: null }),
});

/** Lines of the athletes on sale (the priced one, and the one priced by FALLBACK_PRICE), either style. */
const lines = fc.array(
  fc.record({ which: fc.constantFrom("onSale" as const, "unpriced" as const), vertical: fc.boolean() }),
  { minLength: 1, maxLength: 8 },
);

describe("the order form's total and the server's", () => {
  it("agree for any lines and any promotions (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(settings, lines, async (s, chosen) => {
        const minute = Math.floor(Date.now() / 60_000) * 60_000;
        saveContestPromotions(shop.contestId, {
          earlyBirdVerticalPrice: s.earlyVertical,
          earlyBirdHorizontalPrice: s.earlyHorizontal,
          earlyBirdEndsAt: new Date(minute + s.endsInMinutes * 60_000),
          setDiscount: s.setDiscount,
          quantityMinItems: s.quantity?.[0] ?? null,
          quantityDiscountKind: s.quantity?.[1].kind ?? null,
          quantityDiscountValue: s.quantity?.[1].value ?? null,
        });
        const items = chosen.map(({ which, vertical }) => ({
          category: shop[which].category,
          athleteId: shop[which].id,
          formatId: vertical ? shop.vertical.id : shop.horizontal.id,
        }));
        const page = await orderFormData();
        const browser = priceFormItems(page.options, items, page.promotions, page.pricedAt);
        const server = priceItems(shop.contestId, items, { at: new Date(page.pricedAt) });
        if (!server.ok) throw new Error(server.message);
        expect(browser.total).toBe(server.total);
        expect(browser.listTotal).toBe(server.listTotal);
        expect(browser.discounts).toEqual(server.discounts);
        expect(browser.lines.map((l) => l.price)).toEqual(server.lines.map((l) => l.price));
      }),
      { numRuns: 150 },
    );
  });
});
