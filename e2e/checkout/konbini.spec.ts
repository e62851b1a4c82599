import { expect, test } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { checkoutTwoVideosUntilPayment, deliverTwoVideosByUrl } from "../support/flows";
import { jsEnabled, mailsTo, uniqueEmail, waitForMail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

function statusPathIn(text: string): string {
  const match = /https?:\/\/\S+(\/orders\/[0-9a-f]{32})/.exec(text);
  if (!match?.[1]) throw new Error(`no status link in the mail: ${text}`);
  return match[1];
}

test("konbini paid at the store without word from the payment service: a stranger cannot pay it, the admin confirms it by hand (入金確認（手動）) and the order goes to 制作中", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("konbini-stranger");
  await checkoutTwoVideosUntilPayment(page, email, "他人 太郎");
  await page.getByRole("button", { name: /コンビニ払いで注文する/ }).click();
  const orderNumber = (await page.getByTestId("order-number").textContent())?.trim() ?? "";
  await page.getByRole("link", { name: "注文状況を確認する" }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText("入金待ち");
  const statusPath = new URL(page.url()).pathname;
  // What the buttons used to post, sent by whoever holds the link (the page offers no button now).
  for (const event of ["paid", "expired"]) {
    const answer = await page.request.post(`${statusPath}/konbini-test`, {
      form: { event },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(302);
    expect(answer.headers()["location"]).toBe("/admin-login");
  }
  await page.reload();
  await expect(page.locator('[aria-current="step"]')).toContainText("入金待ち");

  // The customer shows the store's receipt: the admin confirms the payment by hand, after a question.
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  const adminEmail = uniqueEmail("konbini-manual-admin");
  await loginAsAdmin(adminContext, baseURL ?? "", adminEmail);
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/orders/${orderNumber}`);
  const section = admin.getByRole("region", { name: "入金確認（手動）" });
  await section.getByRole("button", { name: "入金確認（手動）" }).click();
  await expect(section.getByText(`注文 ${orderNumber} を入金済みにします。よろしいですか？`)).toBeVisible();
  // The same markup with JavaScript off; checked once.
  if (jsEnabled()) expect(await axeViolations(admin)).toEqual([]);
  await section.getByRole("button", { name: "入金済みにする" }).click();
  await expect(admin.getByText("入金済みにしました（入金確認（手動））")).toBeVisible();
  await expect(admin.getByTestId("order-入金確認")).toContainText(
    new RegExp(`管理者 ${adminEmail} が手動で確認（\\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2}）`),
  );
  await expect(admin.getByRole("region", { name: "入金確認（手動）" })).toHaveCount(0);
  await expect(
    admin.getByText("決済サービスからの入金の連絡がまだありません。連絡が届いてから返金できます。"),
  ).toBeVisible();
  await adminContext.close();

  await page.reload();
  await expect(page.locator('[aria-current="step"]')).toContainText("制作中");
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.subject.includes("お支払いを確認しました")))
    .toBe(true);
});

test("konbini: 入金待ち with the voucher and its mail → the store payment → 制作中 → the admin delivers → 納品済み", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("konbini");
  await checkoutTwoVideosUntilPayment(page, email, "コンビニ 花子");
  await page.getByRole("button", { name: /コンビニ払いで注文する/ }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
  await expect(page.getByRole("heading", { level: 1, name: "ご注文を承りました" })).toBeVisible();
  const orderNumber = (await page.getByTestId("order-number").textContent())?.trim() ?? "";
  const number = (await page.getByTestId("konbini-number").textContent())?.trim() ?? "";
  expect(number).toMatch(/^\d{10,11}$/);
  await expect(page.getByTestId("konbini-due")).toContainText(/\d{4}\/\d{2}\/\d{2} 23:59（日本時間）/);

  // The voucher mail (after the checkout code) is the order's confirmation.
  const voucher = await waitForMail(email, 2);
  expect(voucher.subject).toContain(`コンビニでのお支払いのご案内（注文番号 ${orderNumber}）`);
  expect(voucher.text).toContain(number);
  const statusPath = statusPathIn(voucher.text);

  await page.getByRole("link", { name: "注文状況を確認する" }).click();
  await expect(page).toHaveURL(statusPath);
  await expect(page.locator('[aria-current="step"]')).toContainText("入金待ち");
  await expect(page.getByTestId("konbini-number")).toHaveText(number);
  // The page and the mail give the same steps (one source), and neither asks for a phone number.
  const steps = await page.getByTestId("konbini-steps").getByRole("listitem").allTextContents();
  expect(steps.join("")).toContain("お支払い後、制作を開始します");
  expect(steps.join("")).toContain("自動的に取り消されます");
  for (const step of steps) expect(voucher.text).toContain(step);
  expect(voucher.text).not.toContain("電話番号");
  await expect(page.getByText(/電話番号/)).toHaveCount(0);
  // The test till is the admin's: the customer holding the link is not offered it.
  await expect(page.getByRole("button", { name: "店頭で支払う（テスト）" })).toHaveCount(0);

  // Unpaid: the admin finds it under 入金待ち, not among the orders to deliver.
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("konbini-admin"));
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  await expect(admin.getByText("未対応の注文はありません")).toBeVisible();
  await admin.goto(`/admin/orders?tab=awaiting&q=${encodeURIComponent(email)}`);
  const waiting = admin.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` });
  await expect(waiting.getByText(/入金待ち（コンビニ払い・期限/)).toBeVisible();
  await expect(waiting.getByRole("button", { name: "納品" })).toHaveCount(0);

  // The store's till (テストモード), pressed by the admin on the order's status page, through the webhook's code.
  await admin.goto(statusPath);
  await admin.getByRole("button", { name: "店頭で支払う（テスト）" }).click();
  await expect(admin.locator('[aria-current="step"]')).toContainText("制作中");
  await page.reload();
  await expect(page.locator('[aria-current="step"]')).toContainText("制作中");
  await expect(page.getByTestId("expected-delivery")).toBeVisible();
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.subject.includes("お支払いを確認しました")))
    .toBe(true);

  await deliverTwoVideosByUrl(admin, email, orderNumber);
  await adminContext.close();

  await page.goto(statusPath);
  await expect(page.locator('[aria-current="step"]')).toContainText("納品済み");
  await page.getByRole("link", { name: "ダウンロードページを開く" }).click();
  await expect(page).toHaveURL(/\/download\/[A-Za-z0-9_-]{22}$/);
});

test("konbini: a voucher left unpaid ends 期限切れ, is mailed, and can no longer be paid", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("konbini-expiry");
  await checkoutTwoVideosUntilPayment(page, email, "期限 太郎");
  await page.getByRole("button", { name: /コンビニ払いで注文する/ }).click();
  await page.getByRole("link", { name: "注文状況を確認する" }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText("入金待ち");

  // テストモード's deadline, played by the admin on the same status page.
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("konbini-expiry-admin"));
  const admin = await adminContext.newPage();
  await admin.goto(page.url());
  await admin.getByRole("button", { name: "期限切れにする（テスト）" }).click();
  await expect(admin.locator('[aria-current="step"]')).toContainText("期限切れ");
  await expect(admin.getByRole("button", { name: "店頭で支払う（テスト）" })).toHaveCount(0);
  await adminContext.close();

  await page.reload();
  await expect(page.locator('[aria-current="step"]')).toContainText("期限切れ");
  await expect(page.getByText("動画は制作されません")).toBeVisible();
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.subject.includes("ご注文を取り消しました")))
    .toBe(true);
});
