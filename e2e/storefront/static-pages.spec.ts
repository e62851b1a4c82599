import { expect, test, type Locator } from "@playwright/test";
import { fillItem, openOrderForm } from "../support/flows";

/** A legal text's fact (what a term says), by its label. */
function fact(scope: Locator, label: string): Locator {
  return scope.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

const PAGES = [
  { path: "/about", heading: "当サイトについて" },
  { path: "/contact", heading: "お問い合わせ" },
  { path: "/terms", heading: "利用規約" },
  { path: "/privacy", heading: "プライバシーポリシー" },
  { path: "/privacy-policy", heading: "プライバシーポリシー" },
  { path: "/legal-notice", heading: "特定商取引法に基づく表記" },
];

for (const { path, heading } of PAGES) {
  test(`${path} shows ${heading} inside the shop's frame`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toContainText("© 2025");
    await expect(page).toHaveTitle(new RegExp(heading));
  });
}

test("the 特定商取引法 notice has every field the law asks for, filled from configuration", async ({
  page,
}) => {
  await page.goto("/legal-notice");
  for (const field of [
    "販売業者",
    "運営統括責任者",
    "所在地",
    "電話番号",
    "メールアドレス",
    "販売価格",
    "商品代金以外の必要料金",
    "支払方法",
    "支払時期",
    "引渡時期",
    "返品・キャンセル",
  ]) {
    await expect(page.getByRole("term").filter({ hasText: field }).first()).toBeVisible();
  }
  await expect(page.getByText("株式会社コンテストビデオ（デモ）")).toBeVisible();
  await expect(page.getByText(/3営業日以内にダウンロードURLをメールでお送りします/).first()).toBeVisible();
  await expect(page.getByText(/デジタル商品のため/).first()).toBeVisible();
});

// PAYMENT_METHODS is unset in the e2e server: both methods, each with its own timing.
test("with both payment methods, 特定商取引法に基づく表記 names both, each with its timing, and the refund policy", async ({
  page,
}) => {
  await page.goto("/legal-notice");
  const main = page.getByRole("main");
  await expect(fact(main, "支払方法")).toContainText("クレジットカード（Visa");
  await expect(fact(main, "支払方法")).toContainText("コンビニ払い（ファミリーマート");
  await expect(fact(main, "支払時期")).toContainText("クレジットカード：ご注文時（カード決済の完了時）");
  await expect(fact(main, "支払時期")).toContainText("コンビニ払い：ご注文後にお知らせするお支払い期限");
  await expect(fact(main, "引渡時期")).toContainText("コンビニ払い：お支払いの確認後に制作を始め");
  await expect(fact(main, "返品・キャンセル")).toContainText("自動的に取り消されます");
  await expect(fact(main, "返金")).toContainText("ご利用のクレジットカードへ返金します");
  await expect(fact(main, "返金")).toContainText("銀行口座へお振り込みします");
});

test("with both payment methods, the final-confirmation box (特定商取引法 第12条の6) names both, each with its timing", async ({
  page,
}) => {
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page).toHaveURL(/\/order-confirmation$/);
  const box = page.getByRole("region", { name: "ご注文前にご確認ください" });
  await expect(fact(box, "お支払い方法")).toContainText("クレジットカード（Visa");
  await expect(fact(box, "お支払い方法")).toContainText("コンビニ払い（ファミリーマート");
  await expect(fact(box, "お支払い時期")).toContainText("クレジットカード：ご注文時（カード決済の完了時）");
  await expect(fact(box, "お支払い時期")).toContainText("日後の23:59（日本時間）");
  await expect(fact(box, "お届け時期")).toContainText("コンビニ払い：お支払いの確認後に制作を始め");
  await expect(fact(box, "キャンセル・返品")).toContainText("自動的に取り消されます");
});

test("the privacy policy names the purposes of use and the foreign processors", async ({ page }) => {
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { name: /利用目的/ })).toBeVisible();
  await expect(page.getByText(/Stripe, Inc\./).first()).toBeVisible();
  await expect(page.getByText(/ホスティング事業者/).first()).toBeVisible();
});

test("the header's and footer's links lead to their pages (with JavaScript as client-side navigations, keeping the page)", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/about");
  // A mark on the window survives a client-side navigation only; a full page load clears it.
  if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { shopTestMark: true }));
  const kept = () => page.evaluate(() => "shopTestMark" in window);

  await page.getByRole("contentinfo").getByRole("link", { name: "利用規約" }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole("heading", { level: 1, name: "利用規約" })).toBeVisible();

  // From /terms, then from /order-lookup itself: the menu does not stay open over the page it
  // opened (on a phone it would cover it), nor when its link is to the page already shown.
  const contactMenu = page.getByRole("navigation", { name: "お問い合わせ" });
  for (let time = 0; time < 2; time++) {
    await page.getByRole("banner").getByLabel("お問い合わせメニュー").click();
    await contactMenu.getByRole("link", { name: "注文状況の確認" }).click();
    await expect(page).toHaveURL(/\/order-lookup$/);
    await expect(contactMenu).toBeHidden();
  }

  await page.getByRole("banner").getByRole("link", { name: "ログイン/新規登録" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "ログイン" })).toBeVisible();
  expect(await kept()).toBe(javaScriptEnabled);

  if (javaScriptEnabled) {
    // A modified click is the browser's own (a new tab or window): this page stays where it is.
    const popup = page.context().waitForEvent("page");
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: "プライバシーポリシー" })
      .click({
        modifiers: ["ControlOrMeta"],
      });
    await (await popup).close();
    await expect(page).toHaveURL(/\/login$/);
    expect(await kept()).toBe(true);
  }
});

test("the licences of the JavaScript's packages are served beside it (the bundles carry no licence comments)", async ({
  request,
}) => {
  const response = await request.get("/third-party-licenses.txt");
  expect(response.status()).toBe(200);
  const text = await response.text();
  for (const name of ["react-dom@", "react@", "@remix-run/react@", "react-router@", "@conform-to/react@"])
    expect(text).toContain(name);
  expect(text).toContain("Permission is hereby granted, free of charge");
});
