import { expect, test } from "@playwright/test";

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
  await expect(page.getByText("2〜3営業日以内にダウンロードURLをメールでお送りします")).toBeVisible();
  await expect(page.getByText(/デジタル商品のため/).first()).toBeVisible();
});

test("the privacy policy names the purposes of use and the foreign processors", async ({ page }) => {
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { name: /利用目的/ })).toBeVisible();
  await expect(page.getByText(/Stripe, Inc\./).first()).toBeVisible();
  await expect(page.getByText(/ホスティング事業者/).first()).toBeVisible();
});
