import { expect, test } from "@playwright/test";
import {
  createUserInDb,
  holdEarlierOrdersInDb,
  insertOrder,
  logIn,
  otherBrowser,
  randomIp,
} from "../support/account-helpers";
import { mailsTo, uniqueEmail, waitForMail } from "../support/helpers";

/** パスワードをお忘れの方, with JavaScript on and off: request, mail, link, new password, login. */

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

const SENT = "ご入力のメールアドレスにアカウントがある場合は、パスワード再設定用のリンクをお送りしました。";

function resetPath(text: string): string {
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(text)?.[0];
  if (!link) throw new Error("no reset link in the mail");
  const url = new URL(link);
  return url.pathname + url.search;
}

test("forgotten password end to end: the mailed link sets a new password, every login ends, the old password fails", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("forgot");
  await createUserInDb(email, "Old-Pass-2025");

  // Another browser logged in with the old password.
  const other = await otherBrowser(browser);
  const otherPage = await other.newPage();
  await otherPage.goto("/login?redirectTo=/account");
  await logIn(otherPage, email, "Old-Pass-2025");
  await expect(otherPage).toHaveURL(/\/account$/);

  await page.goto("/login");
  await page.getByRole("link", { name: "パスワードをお忘れの方" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "パスワードの再設定" })).toBeVisible();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByRole("button", { name: "再設定用のリンクを送信" }).click();
  await expect(page.getByText(SENT)).toBeVisible();
  // The address stays, so a typo in it can be seen and corrected.
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);

  const mail = await waitForMail(email);
  expect(mail.subject).toContain("パスワード再設定のご案内");
  expect(mail.text).toContain("30分間");
  await page.goto(resetPath(mail.text));
  await expect(page.getByRole("heading", { name: "新しいパスワードの設定" })).toBeVisible();

  // The registration's rules, beside the fields.
  await page.getByLabel("新しいパスワード", { exact: true }).fill("abcdefgh");
  await page.getByLabel("新しいパスワード（確認）").fill("abcdefgh");
  await page.getByRole("button", { name: "パスワードを設定する" }).click();
  await expect(
    page.getByText("英大文字・英小文字・数字のうち2種類以上を組み合わせてください").first(),
  ).toBeVisible();
  await page.getByLabel("新しいパスワード", { exact: true }).fill("New-Pass-2025");
  await page.getByLabel("新しいパスワード（確認）").fill("New-Pass-2025");
  await page.getByRole("button", { name: "パスワードを設定する" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("パスワードを再設定しました")).toBeVisible();
  await logIn(page, email, "Old-Pass-2025");
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
  await logIn(page, email, "New-Pass-2025");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByLabel("アカウントメニュー")).toBeVisible();

  // The notice, and the other browser is logged out.
  await expect
    .poll(() =>
      mailsTo(email)
        .map((m) => m.subject)
        .join("|"),
    )
    .toContain("パスワードを変更しました");
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/login\?redirectTo=\/account$/);
  await other.close();

  // The link worked once.
  const again = await page.goto(resetPath(mail.text));
  expect(again?.status()).toBe(400);
  await expect(page.getByText("このリンクはすでに使用されています。")).toBeVisible();
});

test("an address without an account gets the same answer, and no mail", async ({ page }) => {
  const email = uniqueEmail("nobody");
  await page.goto("/forgot-password");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByRole("button", { name: "再設定用のリンクを送信" }).click();
  await expect(page.getByText(SENT)).toBeVisible();
  await page.waitForTimeout(500);
  expect(mailsTo(email)).toHaveLength(0);
});

test("a bad or missing reset link shows a Japanese page with a way to ask again (400)", async ({ page }) => {
  const response = await page.goto("/reset-password?token=not-a-real-token");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "パスワードを再設定できません" })).toBeVisible();
  await expect(page.getByText("このリンクは無効です。")).toBeVisible();
  await page.getByRole("link", { name: "再設定用のリンクをもう一度受け取る" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  const missing = await page.goto("/reset-password");
  expect(missing?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "パスワードを再設定できません" })).toBeVisible();
});

test("earlier orders join an auto-login account only through the mailed link, opened logged in", async ({
  page,
}) => {
  const email = uniqueEmail("earlier");
  await createUserInDb(email, "Buyer-Pass-2025");
  const earlier = insertOrder(email, [
    { category: "小学生の部", athleteNumber: 3, style: "縦", price: 3000 },
  ]);
  const token = holdEarlierOrdersInDb(email);

  // The link asks for the account's login first, then comes back.
  await page.goto(`/account/earlier-orders?token=${token}`);
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await logIn(page, email, "Buyer-Pass-2025");
  await expect(page).toHaveURL(/\/account\/earlier-orders\?token=/);
  await expect(page.getByText("アカウント作成より前のご注文が1件あります")).toBeVisible();

  // Not in the purchase history yet.
  await page.goto("/purchase-history");
  await expect(page.getByRole("heading", { name: `注文番号 ${earlier}` })).toHaveCount(0);

  await page.goto(`/account/earlier-orders?token=${token}`);
  await page.getByRole("button", { name: "以前のご注文をアカウントに追加する" }).click();
  await expect(page).toHaveURL(/\/purchase-history$/);
  await expect(page.getByText("以前のご注文をアカウントに追加しました")).toBeVisible();
  await expect(page.getByRole("heading", { name: `注文番号 ${earlier}` })).toBeVisible();

  // Once only.
  const again = await page.goto(`/account/earlier-orders?token=${token}`);
  expect(again?.status()).toBe(400);
  await expect(page.getByText("このリンクはすでに使用されています。")).toBeVisible();
});
