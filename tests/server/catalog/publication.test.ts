import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { setPublication } from "~/server/catalog/publication.server";
import { setClock } from "~/server/core/clock.server";
import { callRoute } from "../../helpers/route";
import { seedContest } from "../../helpers/shop";

const home = () => import("~/routes/storefront/home");
const orderForm = () => import("~/routes/storefront/order-form");

type HomeData = { contests: { id: number; onSale: boolean; salesStartAt: Date | null }[] };

/** What a visitor sees of the contest at the clock's time: its card on the home page, and whether its order form opens. */
async function storefrontAt(at: number, shop: ReturnType<typeof seedContest>) {
  setClock(() => at);
  const slug = contestSlug(shop.name);
  const page = await callRoute((await home()).loader, new Request("http://shop.test/"));
  const card = (page.data as HomeData).contests.find((c) => c.id === shop.contestId);
  const form = await callRoute(
    (await orderForm()).loader,
    new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`),
    { contestSlug: slug },
  );
  return { card, orderFormStatus: form.status };
}

describe("公開予約 under a test clock: the home page and the order form agree", () => {
  it("lists the contest with its start time and keeps the form closed before, sells it from the minute on", async () => {
    const start = Date.UTC(2031, 4, 1, 0, 0);
    const opensAt = start + 30 * 60_000;
    const shop = seedContest();
    setClock(() => start);
    setPublication(shop.contestId, { status: "公開予約", scheduledAt: new Date(opensAt) });

    const before = await storefrontAt(opensAt - 60_000, shop);
    expect(before.card).toMatchObject({ onSale: false, salesStartAt: new Date(opensAt) });
    expect(before.orderFormStatus).toBe(404);

    const at = await storefrontAt(opensAt, shop);
    expect(at.card).toMatchObject({ onSale: true, salesStartAt: null });
    expect(at.orderFormStatus).toBe(200);
  });

  it("shows neither once set back to 非公開", async () => {
    const shop = seedContest();
    setPublication(shop.contestId, { status: "非公開", scheduledAt: null });
    const after = await storefrontAt(Date.UTC(2031, 4, 1), shop);
    expect(after.card).toBeUndefined();
    expect(after.orderFormStatus).toBe(404);
  });
});
