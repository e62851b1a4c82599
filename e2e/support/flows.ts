import { expect, type Page } from "@playwright/test";
import { jsEnabled, waitForMail } from "./helpers";

/** Steps of the storefront's purchase, shared by the specs that need an order. */

export const CONTEST = "第12回 桜ヶ丘ダンスフェスティバル2025";

export async function openOrderForm(page: Page, contest = CONTEST) {
  await page.goto("/");
  await page
    .getByRole("listitem")
    .filter({ hasText: contest })
    .getByRole("link", { name: "注文を開始する" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: contest })).toBeVisible();
}

/**
 * Fills item n (1-based). Without JS the athlete list shows every category, grouped. The number
 * list is labelled with the contest's own word (エントリー番号 for the seeded contest, a new
 * contest's ゼッケン番号).
 */
export async function fillItem(page: Page, n: number, category: string, athlete: RegExp, style: "縦" | "横") {
  const item = page.getByRole("group", { name: `商品${n}` });
  await item.getByLabel("部門").selectOption(category);
  const numbers = item.getByLabel(/番号$/);
  await numbers.selectOption({
    label: (await numbers.locator("option").filter({ hasText: athlete }).first().textContent()) ?? "",
  });
  await item.getByRole("radio", { name: style }).check();
}

export async function enterCode(page: Page, code: string) {
  const boxes = page.getByRole("group", { name: "6桁の認証コード" }).getByRole("textbox");
  if (jsEnabled()) {
    await boxes.first().click();
    await page.keyboard.type(code);
  } else {
    for (let i = 0; i < 6; i++) await boxes.nth(i).fill(code[i] ?? "");
  }
}

export function codeFrom(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no code in mail: ${text}`);
  return match[1];
}

/** A whole purchase with the test card of two videos (キッズ部門 1 縦, ジュニア部門 2 横); returns the order number. */
export async function buyTwoVideos(
  page: Page,
  email: string,
  name = "購入 太郎",
  contest = CONTEST,
): Promise<string> {
  await checkoutTwoVideosUntilPayment(page, email, name, contest);
  await page.getByLabel("カード名義").fill("TARO");
  await page.getByLabel("カード番号").fill("4242424242424242");
  await page.getByLabel("有効期限（MM/YY）").fill("12/39");
  await page.getByLabel("セキュリティコード").fill("123");
  await page.getByRole("button", { name: /を支払う/ }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
  return (await page.getByTestId("order-number").textContent())?.trim() ?? "";
}

/** The same two videos, up to the payment page (the address verified by its mailed code). */
export async function checkoutTwoVideosUntilPayment(
  page: Page,
  email: string,
  name: string,
  contest = CONTEST,
) {
  await openOrderForm(page, contest);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await fillItem(page, 2, "ジュニア部門", /^2 /, "横");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill(name);
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await enterCode(page, codeFrom((await waitForMail(email)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

/** The admin delivers both lines of a two-video order by URL from the order list (納品), as delivery.spec.ts does step by step. */
export async function deliverTwoVideosByUrl(admin: Page, email: string, orderNumber: string) {
  await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  for (const n of [1, 2])
    await admin
      .getByLabel(`${orderNumber}-${n} のダウンロードURL`)
      .fill(`https://videos.example.jp/${orderNumber}-${n}.mp4`);
  await admin
    .getByRole("listitem")
    .filter({ hasText: `注文番号 ${orderNumber}` })
    .getByRole("button", { name: "納品" })
    .click();
  await expect(admin.getByText("納品処理完了")).toBeVisible();
}
