import { expect, test, type Page } from "@playwright/test";
import {
  codeFrom,
  createUserInDb,
  enterCode,
  expectLoggedOut,
  insertOrder,
  logIn,
  otherBrowser,
  randomIp,
  setFailedLogins,
} from "../support/account-helpers";
import { jsEnabled, mailsTo, uniqueEmail, waitForMail } from "../support/helpers";

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

async function fillRegistration(page: Page, email: string, password: string, confirm = password) {
  await page.getByLabel("お名前").fill("山田 花子");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード", { exact: true }).fill(password);
  await page.getByLabel("パスワード（確認）").fill(confirm);
  // Leaving the field shows its messages (with JS), which move the box down: as a person does,
  // the box is ticked once they are there, not by a click that lands while they appear.
  await page.getByLabel("パスワード（確認）").press("Tab");
  await page.getByRole("checkbox", { name: /利用規約.*プライバシーポリシー.*同意します/ }).check();
}

test("register with the mailed code, log in, change the password (other browsers are logged out), log out", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("member");
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1, name: "新規会員登録" })).toBeVisible();
  const links: [string, string][] = [
    ["利用規約", "/terms"],
    ["プライバシーポリシー", "/privacy"],
    ["ログイン", "/login"],
    ["メールが届かない場合", "/email-support"],
  ];
  for (const [name, href] of links) {
    await expect(page.getByRole("main").getByRole("link", { name, exact: true })).toHaveAttribute(
      "href",
      href,
    );
  }
  await expect(
    page.getByText("8文字以上で、英大文字・英小文字・数字のうち2種類以上を組み合わせてください"),
  ).toBeVisible();

  // Mismatched passwords: the message beside the field, the name and e-mail kept.
  await fillRegistration(page, email, "Hanako-2025", "Hanako-2026");
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page.getByText("パスワードが一致しません")).toBeVisible();
  await expect(page.getByLabel("お名前")).toHaveValue("山田 花子");
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);

  await fillRegistration(page, email, "Hanako-2025");
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page).toHaveURL(/\/register\/verify$/);
  await expect(page.getByText(email)).toBeVisible();
  const mail = await waitForMail(email);
  expect(mail.subject).toContain("会員登録の認証コード");
  const code = codeFrom(mail.text);

  await enterCode(page, code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "登録を完了する" }).click();
  await expect(page.getByText("認証コードが正しくありません。再度お試しください。")).toBeVisible();
  await enterCode(page, code);
  await page.getByRole("button", { name: "登録を完了する" }).click();

  await expect(page).toHaveURL(/\/registration-success$/);
  await expect(page.getByRole("heading", { name: "会員登録が完了しました" })).toBeVisible();
  await expect(page.getByRole("link", { name: "ホームへ戻る" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("main").getByRole("link", { name: "メールが届かない場合" })).toHaveAttribute(
    "href",
    "/email-support",
  );

  // The account page asks for a login and comes back.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=\/account$/);
  await logIn(page, email, "Wrong-Pass-1");
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);
  await logIn(page, email, "Hanako-2025");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText("ログインしました")).toBeVisible();
  const details = page.getByRole("region", { name: "登録情報" });
  await expect(details.getByText(email, { exact: true })).toBeVisible();
  await expect(details.getByText("••••••••")).toBeVisible();

  // Another browser logged in as the same user.
  const other = await otherBrowser(browser);
  const otherPage = await other.newPage();
  await otherPage.goto("/login?redirectTo=/account");
  await logIn(otherPage, email, "Hanako-2025");
  await expect(otherPage).toHaveURL(/\/account$/);

  // The password change: a dialog with JavaScript, plain pages without.
  await page.getByRole("link", { name: "パスワードを変更" }).click();
  const steps = jsEnabled() ? page.getByRole("dialog", { name: "パスワードの変更" }) : page.getByRole("main");
  if (jsEnabled()) await expect(steps).toBeVisible();
  else await expect(page).toHaveURL(/\/account\/password$/);
  await steps.getByRole("button", { name: "認証コードを送信" }).click();
  const changeMail = await waitForMail(email, 2);
  expect(changeMail.subject).toContain("パスワード変更の認証コード");
  const changeCode = codeFrom(changeMail.text);
  await enterCode(steps, changeCode === "000000" ? "111111" : "000000");
  await steps.getByRole("button", { name: "認証する" }).click();
  await expect(steps.getByText(/認証コードが正しくありません/)).toBeVisible();
  await enterCode(steps, changeCode);
  await steps.getByRole("button", { name: "認証する" }).click();

  await steps.getByLabel("新しいパスワード", { exact: true }).fill("Better-Pass-7");
  await steps.getByLabel("新しいパスワード（確認）").fill("Better-Pass-8");
  await steps.getByRole("button", { name: "パスワードを変更" }).click();
  await expect(steps.getByText("新しいパスワードが一致しません")).toBeVisible();
  await steps.getByLabel("新しいパスワード", { exact: true }).fill("Better-Pass-7");
  await steps.getByLabel("新しいパスワード（確認）").fill("Better-Pass-7");
  await steps.getByRole("button", { name: "パスワードを変更" }).click();
  await expect(page.getByText("パスワードを変更しました")).toBeVisible();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page).toHaveURL(/\/account$/);

  // This browser stays logged in; the other one is out.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "アカウント" })).toBeVisible();
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/login\?redirectTo=\/account$/);
  await other.close();

  // Log out from the account page.
  await page.getByRole("main").getByRole("button", { name: "ログアウト", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectLoggedOut(page);

  // The old password no longer works; the new one does.
  await page.goto("/login");
  await logIn(page, email, "Hanako-2025");
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
  await logIn(page, email, "Better-Pass-7");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByLabel("アカウントメニュー")).toBeVisible();
});

test("the link in the registration mail verifies too, then goes on to the login page", async ({ page }) => {
  const email = uniqueEmail("linked");
  await page.goto("/register");
  await fillRegistration(page, email, "Linked-2025");
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page).toHaveURL(/\/register\/verify$/);
  const mail = await waitForMail(email);
  const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();

  await page.goto(new URL(link ?? "").pathname + new URL(link ?? "").search);
  await expect(page.getByRole("heading", { name: "メールアドレスを確認しました" })).toBeVisible();
  await expect(page.getByRole("link", { name: "ログインページへ進む" })).toHaveAttribute("href", "/login");
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });
  await logIn(page, email, "Linked-2025");
  await expect(page).toHaveURL(/\/$/);

  // No token, or a wrong one: an error with a way forward.
  await page.goto("/verify-email");
  await expect(page.getByText("無効なトークンです")).toBeVisible();
  await expect(page.getByRole("link", { name: "もう一度会員登録する" })).toHaveAttribute("href", "/register");
  await expect(page.getByRole("link", { name: "サポートに問い合わせる" })).toBeVisible();
  const response = await page.goto("/verify-email?token=not-a-token");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "メールアドレスを確認できませんでした" })).toBeVisible();
});

test("registering an e-mail that has an account looks the same, and the owner is told by mail", async ({
  page,
}) => {
  const email = uniqueEmail("owner");
  await createUserInDb(email, "Owner-Pass-1");
  await page.goto("/register?from=order");
  await fillRegistration(page, email, "Someone-2025");
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page).toHaveURL(/\/register\/verify$/);
  await expect(page.getByText(`${email} に6桁の認証コードをお送りしました`)).toBeVisible();
  const mail = await waitForMail(email);
  expect(mail.subject).toContain("会員登録のお申し込みについて");
  expect(mail.text).toContain("すでに登録されています");
  expect(mail.text).toMatch(/\/login/);
  await enterCode(page, "123456");
  await page.getByRole("button", { name: "登録を完了する" }).click();
  await expect(page.getByText("認証コードが正しくありません。再度お試しください。")).toBeVisible();

  await page.goto("/registration-success?from=order");
  await expect(page.getByRole("link", { name: "注文確認へ進む" })).toHaveAttribute(
    "href",
    "/order-confirmation",
  );
  await page.goto("/registration-complete");
  await expect(page.getByRole("link", { name: "ホームへ戻る" })).toBeVisible();
});

test("login warns as failures add up, locks the account, and never leaves the site afterwards", async ({
  page,
}) => {
  const email = uniqueEmail("careless");
  await createUserInDb(email, "Careful-Pass-1");

  setFailedLogins(email, 4);
  await page.goto("/login");
  await logIn(page, email, "Wrong-Pass-1");
  await expect(page.getByText("あと5回失敗すると、アカウントが15分間ロックされます。")).toBeVisible();

  setFailedLogins(email, 8);
  await logIn(page, email, "Wrong-Pass-1");
  await expect(page.getByText(/あと1回失敗すると.*次に失敗するとロックされます/)).toBeVisible();

  await logIn(page, email, "Wrong-Pass-1");
  await expect(
    page.getByText(
      /アカウントを一時的にロックしました。\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} 以降に再度お試しください。/,
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "ログイン", exact: true })).toBeDisabled();

  // An unknown address gets the same kind of answer as a known one.
  await page.goto("/login");
  await logIn(page, uniqueEmail("ghost"), "Wrong-Pass-1");
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();

  // ?redirectTo= only leads to this site.
  const safe = uniqueEmail("safe");
  await createUserInDb(safe, "Safe-Pass-1");
  await page.goto("/login?redirectTo=//evil.example/steal");
  await logIn(page, safe, "Safe-Pass-1");
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test("purchase history shows the account's own orders, page by page, and nobody else's", async ({
  page,
  browser,
}) => {
  const buyer = uniqueEmail("buyer");
  const stranger = uniqueEmail("stranger");
  await createUserInDb(buyer, "Buyer-Pass-1");
  await createUserInDb(stranger, "Stranger-Pass-1");
  const start = Date.now() - 60 * 60_000;
  for (let i = 0; i < 11; i++)
    insertOrder(
      buyer,
      [{ category: "幼児の部", athleteNumber: i + 1, style: "縦", price: 3000 }],
      start + i * 1000,
    );
  const newest = insertOrder(
    buyer,
    [
      {
        category: "小学生の部",
        athleteNumber: 7,
        style: "縦",
        price: 3000,
        url: "https://videos.example.jp/7.mp4",
      },
      { category: "小学生の部", athleteNumber: 8, style: "横", price: 5000 },
    ],
    start + 60_000,
  );

  await page.goto("/purchase-history");
  await expect(page).toHaveURL(/\/login\?redirectTo=\/purchase-history$/);
  await logIn(page, buyer, "Buyer-Pass-1");
  await expect(page).toHaveURL(/\/purchase-history$/);
  await expect(page.getByRole("heading", { level: 1, name: "購入履歴" })).toBeVisible();
  const groups = page.getByRole("main").getByRole("region");
  await expect(groups).toHaveCount(10);
  const first = groups.first();
  await expect(first.getByRole("heading", { name: `注文番号 ${newest}` })).toBeVisible();
  const download = first.getByRole("link", { name: /ダウンロード/ });
  // Through the order's download page, where each video downloads once and before expiry.
  await expect(download).toHaveAttribute("href", /^\/download\/[A-Za-z0-9_-]{22}$/);
  await expect(download).toHaveAttribute("target", "_blank");
  await expect(download).toHaveAttribute("rel", /noopener/);
  await expect(first.getByText("納品待ち")).toBeVisible();
  await expect(first.getByText("8,000円（税込）")).toBeVisible();

  await page
    .getByRole("navigation", { name: "購入履歴のページ" })
    .getByRole("link", { name: "次へ" })
    .click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(groups).toHaveCount(2);

  // Another customer sees none of it.
  const other = await otherBrowser(browser);
  const otherPage = await other.newPage();
  await otherPage.goto("/login?redirectTo=/purchase-history");
  await logIn(otherPage, stranger, "Stranger-Pass-1");
  await expect(otherPage.getByText("まだ購入履歴がありません")).toBeVisible();
  await expect(otherPage.getByRole("link", { name: "大会一覧を見る" })).toHaveAttribute("href", "/");
  await expect(otherPage.getByText(newest)).toHaveCount(0);
  await other.close();

  // Logging out from the header menu.
  await page.getByRole("banner").getByLabel("アカウントメニュー").click();
  await page.getByRole("banner").getByRole("button", { name: "ログアウト" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectLoggedOut(page);
  await page.goto("/purchase-history");
  await expect(page).toHaveURL(/\/login\?redirectTo=\/purchase-history$/);
});

test("the mail help page and /api/email-status report the mail service", async ({ page, request }) => {
  const response = await request.get("/api/email-status");
  expect(response.status()).toBe(200);
  const status = (await response.json()) as Record<string, unknown>;
  // The public learns whether mail goes out, not which server sends it.
  expect(status).toMatchObject({
    emailServiceActive: true,
    senderEmail: "shop@example.jp",
    smtpServer: null,
  });
  expect(typeof status.timestamp).toBe("string");
  expect(JSON.stringify(status)).not.toMatch(/smtp:\/\//);

  await page.goto("/email-support");
  await expect(page.getByRole("heading", { level: 1, name: "メールが届かない場合" })).toBeVisible();
  await expect(page.getByText("正常に稼働しています")).toBeVisible();
  await expect(page.getByText("10分間", { exact: true })).toBeVisible();
  for (const provider of [
    "Gmail",
    "Yahoo!メール",
    "iCloud メール（iPhone）",
    /^docomo/,
    /^au（/,
    /^SoftBank/,
  ]) {
    await expect(page.getByText(provider).first()).toBeVisible();
  }
  await page.getByText("docomo（@docomo.ne.jp）").click();
  await expect(page.getByText(/受信リスト設定.*@example\.jp/).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "support@example.jp" })).toHaveAttribute(
    "href",
    "mailto:support@example.jp",
  );
  expect(mailsTo("nobody@example.jp")).toHaveLength(0);
});
