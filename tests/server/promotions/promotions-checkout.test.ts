import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";
import { priceItems } from "~/server/promotions/order-pricing.server";
import { saveContestPromotions } from "~/server/promotions/contest-promotions.server";
import { TOTAL_CHANGED_MESSAGE } from "~/server/checkout/payment.server";
import {
  checkoutUntilConfirmed,
  checkoutUntilVerified,
  enterMailedCode,
  openCheckoutPage,
  payByTestCard,
} from "../../helpers/checkout-flow";
import { callRoute } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

/*
 * The contest's promotions through a whole checkout without JS: the server prices every step
 * with them, an early-bird that ends between two steps is explained, and the order keeps what
 * each line was paid.
 */

const smtp = smtpServerForThisFile();

afterEach(() => setClock(null));

type Shop = ReturnType<typeof seedContest>;

const NO_PROMOTION = {
  earlyBirdVerticalPrice: null,
  earlyBirdHorizontalPrice: null,
  earlyBirdEndsAt: null,
  setDiscount: null,
  quantityMinItems: null,
  quantityDiscountKind: null,
  quantityDiscountValue: null,
};

function bothStyles(shop: Shop) {
  return [
    { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
    { category: "A部門", athleteId: shop.onSale.id, formatId: shop.horizontal.id },
  ];
}

/** 注文内容の確認 saved again with the verified address (no new code). */
async function confirmAgain(cookie: string) {
  const page = (await openCheckoutPage("/order-confirmation", cookie)).data as {
    customer: { email: string };
  };
  const confirmation = await import("~/routes/checkout/order-confirmation");
  const saved = await callRoute(
    confirmation.action,
    formRequest(
      "/order-confirmation",
      [
        ["email", page.customer.email],
        ["name", "テスト 太郎"],
      ],
      cookie,
    ),
  );
  expect(saved.location).toBe("/payment");
}

type PaymentPage = { summary: { total: number; notice: string | null; discounts: { name: string }[] } };

describe("a contest's promotions at checkout", () => {
  it("早割 and セット割 together: the lines' paid prices, the order's breakdown", async () => {
    const shop = seedContest();
    const endsAt = new Date(Date.now() + 86_400_000);
    saveContestPromotions(shop.contestId, {
      ...NO_PROMOTION,
      earlyBirdVerticalPrice: 2500,
      earlyBirdEndsAt: endsAt,
      setDiscount: 1000,
    });
    const { cookie, email } = await checkoutUntilVerified(shop, bothStyles(shop), smtp.received);
    const page = (await openCheckoutPage("/payment", cookie)).data as PaymentPage;
    // 3,000 → 2,500 (早割), 4,500; the pair −1,000 (セット割) split 500 / 500.
    expect(page.summary.total).toBe(6000);
    expect(page.summary.discounts.map((d) => d.name)).toEqual(["早割", "セット割"]);
    expect((await payByTestCard(cookie, 6000)).location).toBe("/payment-complete");
    const order = db().select().from(orders).where(eq(orders.customerEmail, email)).get()!;
    expect(order).toMatchObject({
      totalAmount: 6000,
      listTotal: 7500,
      discounts: [
        { kind: "early_bird", name: "早割", amount: 500 },
        { kind: "set", name: "セット割", amount: 1000 },
      ],
    });
    const lines = db().select().from(orderLines).where(eq(orderLines.orderId, order.id)).all();
    expect(lines.map((l) => [l.listPrice, l.price])).toEqual([
      [3000, 2000],
      [4500, 4000],
    ]);
  });

  it("the early-bird ends at its time: before it the early price, at it the regular one, at every step and at payment", async () => {
    const shop = seedContest();
    const start = Date.now();
    const endsAt = start + 10 * 60_000;
    saveContestPromotions(shop.contestId, {
      ...NO_PROMOTION,
      earlyBirdVerticalPrice: 2500,
      earlyBirdEndsAt: new Date(endsAt),
    });
    const items = bothStyles(shop);
    expect(priceItems(shop.contestId, items, { at: new Date(endsAt - 1) })).toMatchObject({ total: 7000 });
    expect(priceItems(shop.contestId, items, { at: new Date(endsAt) })).toMatchObject({ total: 7500 });

    const { cookie, email } = await checkoutUntilVerified(shop, items, smtp.received);
    expect(((await openCheckoutPage("/order-confirmation", cookie)).data as { total: number }).total).toBe(
      7000,
    );
    setClock(() => endsAt + 60_000);
    // The JS-off test form posts the total its page showed: refused with why, never charged.
    const stale = await payByTestCard(cookie, 7000);
    expect(stale.status).toBe(409);
    const refusal = JSON.stringify(stale.data);
    expect(refusal).toMatch(/早割は .* に終了しました。合計金額が 7,000円 から 7,500円 に変わりました/);
    expect(refusal).not.toContain(TOTAL_CHANGED_MESSAGE);
    const page = (await openCheckoutPage("/payment", cookie)).data as PaymentPage;
    expect(page.summary.total).toBe(7500);
    expect((await payByTestCard(cookie, 7500)).location).toBe("/payment-complete");
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).get()).toMatchObject({
      totalAmount: 7500,
      discounts: [],
    });
  });

  it("the payment page opened after the early-bird ended says so above the new total, again on a reload", async () => {
    const shop = seedContest();
    const endsAt = Date.now() + 60_000;
    saveContestPromotions(shop.contestId, {
      ...NO_PROMOTION,
      earlyBirdVerticalPrice: 2500,
      earlyBirdEndsAt: new Date(endsAt),
    });
    const { cookie, email } = await checkoutUntilConfirmed(shop, bothStyles(shop));
    setClock(() => endsAt + 30_000);
    // The code is entered after the end: a step that shows no price, so the reason still stands.
    await enterMailedCode(cookie, email, smtp.received);
    for (let load = 0; load < 2; load++) {
      const page = (await openCheckoutPage("/payment", cookie)).data as PaymentPage;
      expect(page.summary.total).toBe(7500);
      expect(page.summary.notice).toMatch(/^早割は .* に終了しました。合計金額が 7,000円 から 7,500円/);
    }
    // Confirmed again at the new price: nothing more to explain.
    await confirmAgain(cookie);
    expect(((await openCheckoutPage("/payment", cookie)).data as PaymentPage).summary.notice).toBeNull();
  });
});
