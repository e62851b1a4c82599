import { expect, test, type Page } from "@playwright/test";
import { randomIp, otherBrowser } from "../support/account-helpers";
import {
  LIST_TOTAL,
  applyCoupon,
  contestId,
  couponField,
  couponUses,
  expectTotal,
  makeCoupon,
  paidOrderOf,
  payByTestCard,
  shownCharge,
  untilConfirmation,
  useCouponElsewhere,
  verifyUntilPayment,
} from "../support/coupons";
import { axeViolations } from "../support/axe";
import { mailsTo, uniqueEmail } from "../support/helpers";
import { photograph } from "../support/visual";

/*
 * A parent's coupon at checkout, JavaScript on and off: typed on 注文内容の確認 (full-width and
 * lower-case forgiven), refused for each reason with its message, taken off; the last use raced
 * by two checkouts; a coupon ending between the confirmation and the payment (test clock).
 * Both styles of キッズ部門 1 cost 3,000 + 4,500 = 7,500円.
 */

// Each test is its own client address: the per-address limit on coupon tries never leaks between them.
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

const MINUTE = 60_000;

/** Full-width letters and digits, as a Japanese keyboard types them. */
const fullWidth = (code: string) =>
  code.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** The confirmation page's coupon section (its field, its message). */
const couponSection = (page: Page) => page.getByRole("region", { name: "クーポンコード" });

test("a 100 % coupon typed in full-width lower case: split over the lines, it stops at 50円 and says why on the confirmation, the payment, the order status and in the mail", async ({
  page,
}) => {
  const coupon = makeCoupon({ kind: "percent", value: 100 });
  const email = uniqueEmail("coupon-paid");
  const floor = "お支払いは最低50円からのため、割引は7,450円までとなります。";
  await untilConfirmation(page);
  await expectTotal(page, LIST_TOTAL);
  await expect(page.getByText(floor)).toHaveCount(0);

  await applyCoupon(page, ` ${fullWidth(coupon.code).toLowerCase()} `);
  await expect(page.getByText(`クーポン「${coupon.code}」を適用しました（−7,450円）`)).toBeVisible();
  const summary = page.getByRole("region", { name: "ご注文内容" });
  const lines = summary.getByRole("listitem");
  // The coupon is shared over the lines by price: 2,980 off 3,000, 4,470 off 4,500.
  await expect(lines.nth(0).locator("del")).toHaveText("通常価格 3,000円");
  await expect(lines.nth(0)).toContainText(`クーポン（${coupon.code}） −2,980円`);
  await expect(lines.nth(0)).toContainText("20円（税込）");
  await expect(lines.nth(1).locator("del")).toHaveText("通常価格 4,500円");
  await expect(lines.nth(1)).toContainText(`クーポン（${coupon.code}） −4,470円`);
  await expect(lines.nth(1)).toContainText("30円（税込）");
  await expect(summary).toContainText("小計（通常価格）7,500円");
  await expectTotal(page, 50);
  await expect(summary.getByText(floor)).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await photograph(page, "i43-checkout-full-coupon");

  await verifyUntilPayment(page, email, "割引 花子");
  await expectTotal(page, 50);
  await expect(page.getByRole("region", { name: "ご注文内容" }).getByText(floor)).toBeVisible();
  expect(await shownCharge(page)).toBe(50);
  await payByTestCard(page);
  await expect(page.getByText("ご注文ありがとうございました")).toBeVisible();

  const order = paidOrderOf(email);
  expect(order).toMatchObject({ total_amount: 50, list_total: 7500, coupon_id: coupon.id, charged: 50 });
  expect(couponUses(coupon.id)).toMatchObject([{ order_id: order?.id, amount: 7450 }]);
  const confirmationMail = () =>
    mailsTo(email).find((received) => received.subject.includes("ご注文ありがとうございます"))?.text;
  await expect.poll(confirmationMail).toContain(floor);

  await page.getByRole("link", { name: "注文状況を確認する" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("50円（税込）");
  await expect(page.getByText(`クーポン（${coupon.code}）`).first()).toBeVisible();
  await expect(page.getByText(floor)).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test("a coupon refused says why, for each reason, and the typed code stays in the field", async ({
  page,
}) => {
  const otherContest = contestId("みなと市 春季陸上競技大会");
  const usedUp = makeCoupon({ maxUses: 1 });
  useCouponElsewhere(usedUp.id);
  const refusals: [typed: string, message: string][] = [
    [makeCoupon({ validUntil: Date.now() - 24 * 60 * MINUTE }).code, "期限切れ：このクーポンの有効期限（"],
    [usedUp.code, "使用済み：このクーポンは利用できる回数の上限に達しました"],
    [
      makeCoupon({ contestIds: [otherContest] }).code,
      "対象外の大会：このクーポンはこの大会のご注文にはお使いいただけません",
    ],
    [
      makeCoupon({ kind: "yen", value: 500, minTotal: 10_000 }).code,
      "最低金額：このクーポンは合計 10,000円以上のご注文でお使いいただけます",
    ],
    ["NOSUCHCOUPON99", "このクーポンコードはお使いいただけません。入力内容をご確認ください"],
  ];
  await untilConfirmation(page);
  for (const [typed, message] of refusals) {
    await applyCoupon(page, typed);
    await expect(couponSection(page).getByText(message)).toBeVisible();
    await expect(couponField(page)).toHaveValue(typed);
    await expect(page.getByText(/を適用しました/)).toHaveCount(0);
    await expectTotal(page, LIST_TOTAL);
    if (message.startsWith("最低金額")) await photograph(page, "i33-checkout-refused");
  }
});

test("クーポンを外す: the total goes back to the regular price", async ({ page }) => {
  const coupon = makeCoupon({ kind: "yen", value: 1000 });
  await untilConfirmation(page);
  await applyCoupon(page, coupon.code);
  await expect(page.getByText(`クーポン「${coupon.code}」を適用しました（−1,000円）`)).toBeVisible();
  await expectTotal(page, 6500);

  await page.getByRole("button", { name: "クーポンを外す" }).click();
  await expectTotal(page, LIST_TOTAL);
  await expect(page.getByText(/を適用しました/)).toHaveCount(0);
  await expect(page.getByText("小計（通常価格）")).toHaveCount(0);
  await expect(couponField(page)).toHaveValue("");
});

test("*last coupon use raced*: two checkouts open the payment at the same moment; one gets the coupon, the other is shown the full total, and each pays what she was shown", async ({
  browser,
}) => {
  const coupon = makeCoupon({ kind: "yen", value: 1000, maxUses: 1 });
  const parents = await Promise.all(
    ["race-a", "race-b"].map(async (label) => {
      const context = await otherBrowser(browser);
      return { context, page: await context.newPage(), email: uniqueEmail(label) };
    }),
  );
  try {
    // Both addresses verified first, then the coupon on both confirmation pages: nobody holds it yet.
    for (const { page, email } of parents) {
      await untilConfirmation(page);
      await verifyUntilPayment(page, email, "競争 花子");
      await page.goto("/order-confirmation");
      await applyCoupon(page, coupon.code);
      await expect(page.getByText(`クーポン「${coupon.code}」を適用しました（−1,000円）`)).toBeVisible();
    }
    await Promise.all(parents.map(({ page }) => page.goto("/payment")));
    const shown = await Promise.all(parents.map(({ page }) => shownCharge(page)));
    expect([...shown].sort((a, b) => a - b)).toEqual([6500, 7500]);

    const loser = parents[shown.indexOf(7500)]!;
    await expectTotal(loser.page, 7500);
    // Told why before anything is charged: if her page was priced before the other hold was taken,
    // the notice that the price changed (and the kept coupon refused under it); if after, the kept
    // coupon refused as 使用済み. With the test provider (no network call between the pricing and
    // the hold) the server answers one page whole before the other, so the second is the refusal;
    // the interleaved case is tests/server/checkout/coupon-checkout.test.ts's. Seen failing with both the pages'
    // count of holds and the hold's cap check removed (both pages then offered 6,500円).
    const notice = loser.page.getByText(/^使用済み：.*クーポンなしの金額に変わりました/);
    await expect(
      notice.or(loser.page.getByText(/^クーポン「.+」はお使いいただけません。使用済み：/)).first(),
    ).toBeVisible();
    await photograph(
      loser.page,
      (await notice.isVisible()) ? "i33-checkout-payment-notice" : "i33-checkout-payment-refused",
    );
    const winner = parents[shown.indexOf(6500)]!;
    await expectTotal(winner.page, 6500);

    await Promise.all(parents.map(({ page }) => payByTestCard(page)));
    const uses = couponUses(coupon.id).filter((use) => use.order_id !== null);
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ order_id: paidOrderOf(winner.email)?.id, amount: 1000 });
    // Never charged a price she was not shown.
    expect(paidOrderOf(winner.email)).toMatchObject({
      total_amount: 6500,
      coupon_id: coupon.id,
      charged: 6500,
    });
    expect(paidOrderOf(loser.email)).toMatchObject({ total_amount: 7500, coupon_id: null, charged: 7500 });
  } finally {
    await Promise.all(parents.map(({ context }) => context.close()));
  }
});

test("a coupon that ends between the confirmation and the payment (test clock): refused as 期限切れ, the full total shown and charged", async ({
  page,
  context,
  baseURL,
}) => {
  const coupon = makeCoupon({ kind: "yen", value: 1000, validUntil: Date.now() + 10 * MINUTE });
  const email = uniqueEmail("coupon-ended");
  await untilConfirmation(page);
  await applyCoupon(page, coupon.code);
  await expectTotal(page, 6500);
  await verifyUntilPayment(page, email, "期限 花子");
  expect(await shownCharge(page)).toBe(6500);

  // This context's requests only run 20 minutes ahead: past the coupon's end.
  await context.addCookies([
    { name: "shop-test-clock-offset", value: String(20 * MINUTE), url: baseURL ?? "" },
  ]);
  await page.goto("/payment");
  await expect(page.getByText(/はお使いいただけません。期限切れ：このクーポンの有効期限/)).toBeVisible();
  await expectTotal(page, LIST_TOTAL);
  expect(await shownCharge(page)).toBe(LIST_TOTAL);

  await payByTestCard(page);
  expect(paidOrderOf(email)).toMatchObject({
    total_amount: LIST_TOTAL,
    coupon_id: null,
    charged: LIST_TOTAL,
  });
  expect(couponUses(coupon.id).filter((use) => use.order_id !== null)).toHaveLength(0);
});
