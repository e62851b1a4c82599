import { expect, test } from "@playwright/test";
import { jsEnabled } from "../support/helpers";

test.describe("document shell", () => {
  test("home lists the published demo contests but not the unpublished one", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "第12回 桜ヶ丘ダンスフェスティバル2025" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "みなと市 春季陸上競技大会" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "青葉ピアノ発表会 2025" })).toBeVisible();
    await expect(page.getByText("秋の新体操選手権（準備中）")).toHaveCount(0);
    // Other specs publish contests of their own meanwhile, so each demo card is checked by itself.
    for (const name of [
      "第12回 桜ヶ丘ダンスフェスティバル2025",
      "みなと市 春季陸上競技大会",
      "青葉ピアノ発表会 2025",
    ]) {
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
      await expect(card.getByText("動画販売")).toBeVisible();
      await expect(card.getByRole("link", { name: "注文を開始する" })).toBeVisible();
    }
    await expect(page.getByRole("img", { name: /カバー画像/ }).first()).toHaveJSProperty("complete", true);
  });

  test("/video is the same home", async ({ page }) => {
    await page.goto("/video");
    await expect(page.getByRole("heading", { name: "販売中の大会" })).toBeVisible();
  });

  test("header menus when logged out", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: /コンテスト動画ショップ/ })).toHaveAttribute("href", "/");
    await header.getByRole("link", { name: "ログイン/新規登録" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/about");
    await page.getByLabel("お問い合わせメニュー").click();
    await page
      .getByRole("navigation", { name: "お問い合わせ" })
      .getByRole("link", { name: "お問い合わせ" })
      .click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "お問い合わせ" })).toBeVisible();
  });

  test("footer links and the copyright line", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const name of [
      "当サイトについて",
      "特定商取引法に基づく表記",
      "プライバシーポリシー",
      "利用規約",
      "お問い合わせ",
    ]) {
      await expect(footer.getByRole("link", { name })).toBeVisible();
    }
    await expect(footer).toContainText("© 2025");
  });

  test("an unknown path is a 404 page reading Page Not Found with a way home", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "ホームへ戻る" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("an uncaught error shows the full-page fallback with retry and reload", async ({ page }) => {
    const response = await page.goto("/test-hooks/error");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: "エラーが発生しました" })).toBeVisible();
    await expect(page.getByRole("link", { name: "再試行" })).toBeVisible();
    await page.getByRole("link", { name: "ページをリロード" }).click();
    await expect(page.getByRole("heading", { name: "エラーが発生しました" })).toBeVisible();
    // The header still works from the fallback, so the customer is never stuck.
    await page
      .getByRole("banner")
      .getByRole("link", { name: /コンテスト動画ショップ/ })
      .click();
    await expect(page.getByRole("heading", { name: "販売中の大会" })).toBeVisible();
  });

  test("a flashed toast is rendered by the server, shows once, and closes itself with JS", async ({
    page,
  }) => {
    await page.goto("/test-hooks/toast");
    await expect(page).toHaveURL(/\/$/);
    const toast = page.getByRole("status").filter({ hasText: "テスト通知" });
    await expect(toast).toBeVisible();
    const box = await toast.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(420);
    if (jsEnabled()) {
      await expect(toast).toBeHidden({ timeout: 8_000 });
    } else {
      await page.reload();
      await expect(page.getByText("テスト通知")).toHaveCount(0);
    }
  });

  test("/healthz answers when the database does", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("ok");
  });
});
