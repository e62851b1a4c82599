import crypto from "node:crypto";
import { e2eDbFile } from "../support/work-dir";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { addBusinessDays } from "../../app/server/orders/business-days.server";
import { formatDayWithWeekday } from "../../app/lib/rules/format";
import { e2eDb } from "../support/db";
import { buyTwoVideos, deliverTwoVideosByUrl } from "../support/flows";
import { jsEnabled, mailsTo, uniqueEmail, waitForMail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";
import { axeViolations } from "../support/axe";

/** The e2e server's database, writable: stands in for the konbini flow until it exists. */
function writableDb() {
  return new Database(e2eDbFile(), {
    fileMustExist: true,
  });
}

function statusTokenIn(text: string): string {
  const match = /https?:\/\/\S+\/orders\/([0-9a-f]{32})/.exec(text);
  if (!match?.[1]) throw new Error(`no status link in the mail: ${text}`);
  return match[1];
}

/** A konbini order written straight into the database, one line, as the lead's flow will make it. */
function insertKonbiniOrder(email: string) {
  const orderNumber = String(90_000_000 + crypto.randomInt(9_999_999));
  const statusToken = crypto.randomBytes(16).toString("hex");
  const db = writableDb();
  try {
    const { id } = db
      .prepare(
        `insert into orders (order_number, checkout_id, payment_intent_id, contest_name, bib_number_label,
           customer_email, customer_name, total_amount, line_count, status, payment_method, payment_status,
           paid_at, payment_due_at, konbini_confirmation_number, status_token)
         values (?, ?, ?, ?, '', ?, ?, 3000, 1, '未対応', 'konbini', 'awaiting', null, ?, ?, ?) returning id`,
      )
      .get(
        orderNumber,
        `e2e-${statusToken}`,
        `pi_e2e_${statusToken}`,
        "第12回 桜ヶ丘ダンスフェスティバル2025",
        email,
        "コンビニ 花子",
        Date.parse("2030-06-07T14:59:00Z"),
        "12345678901",
        statusToken,
      ) as { id: number };
    db.prepare(
      `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
         style, orientation, price)
       values (?, ?, ?, 'キッズ部門', 5, 'コンビニ 一郎', '縦', 'vertical', 3000)`,
    ).run(id, `${orderNumber}-1`, "第12回 桜ヶ丘ダンスフェスティバル2025");
  } finally {
    db.close();
  }
  return { orderNumber, statusToken };
}

async function openStatus(page: Page, token: string) {
  const response = await page.goto(`/orders/${token}`);
  await expect(page.getByRole("heading", { level: 1, name: "注文状況" })).toBeVisible();
  return response;
}

test("the status page follows an order: 制作中 with the promised day, then 納品済み with the download page", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("status");
  const orderNumber = await buyTwoVideos(page, email, "状況 太郎");
  const fromCompletePage = await page.getByRole("link", { name: "注文状況を確認する" }).getAttribute("href");
  expect(fromCompletePage).toMatch(/^\/orders\/[0-9a-f]{32}$/);

  // The confirmation mail (after the checkout code) carries the link.
  const confirmation = await waitForMail(email, 2);
  expect(confirmation.subject).toContain("ご注文ありがとうございます");
  expect(confirmation.text).toContain("注文状況の確認");
  const token = statusTokenIn(confirmation.text);
  expect(fromCompletePage).toBe(`/orders/${token}`);

  const response = await openStatus(page, token);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["referrer-policy"]).toBe("same-origin");
  expect(response?.headers()["cache-control"]).toContain("no-store");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.getByTestId("order-number")).toHaveText(orderNumber);
  await expect(page.locator('[aria-current="step"]')).toContainText("制作中");
  await expect(page.getByRole("heading", { name: "動画を制作しています" })).toBeVisible();
  // Steps still to come are read as easily as those done (axe's color-contrast among the rest).
  expect(await axeViolations(page)).toEqual([]);
  const db = e2eDb();
  const { paid_at: paidAt } = db
    .prepare("select paid_at from orders where order_number = ?")
    .get(orderNumber) as {
    paid_at: number;
  };
  db.close();
  await expect(page.getByTestId("expected-delivery")).toHaveText(
    formatDayWithWeekday(addBusinessDays(paidAt, 3)),
  );
  const lines = page.getByRole("region", { name: "ご注文内容" });
  await expect(lines).toContainText("キッズ部門");
  await expect(lines).toContainText("ジュニア部門");
  await expect(page.getByTestId("order-total")).toContainText("円（税込）");

  // The admin delivers.
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("status-admin"));
  const admin = await adminContext.newPage();
  await deliverTwoVideosByUrl(admin, email, orderNumber);
  await adminContext.close();

  await openStatus(page, token);
  await expect(page.locator('[aria-current="step"]')).toContainText("納品済み");
  await expect(page.getByRole("heading", { name: "動画のご用意ができました" })).toBeVisible();
  await expect(page.getByText("有効期限:")).toBeVisible();
  await page.getByRole("link", { name: "ダウンロードページを開く" }).click();
  await expect(page).toHaveURL(/\/download\/[A-Za-z0-9_-]{22}$/);
  await expect(page.getByRole("heading", { level: 1, name: "動画のダウンロード" })).toBeVisible();
  await expect(page.getByText(orderNumber)).toBeVisible();
});

test("a wrong or malformed token is a 404 that leads to the order lookup", async ({ page }) => {
  for (const token of ["0123456789abcdef0123456789abcdef", "not-a-token"]) {
    const response = await page.goto(`/orders/${token}`);
    expect(response?.status()).toBe(404);
    await expect(
      page.getByRole("heading", { level: 1, name: "注文状況のページが見つかりません" }),
    ).toBeVisible();
  }
  await page.getByRole("link", { name: "注文番号とメールアドレスで確認する" }).click();
  await expect(page).toHaveURL(/\/order-lookup$/);
  await expect(page.getByRole("heading", { level: 1, name: "注文状況の確認" })).toBeVisible();
});

test("入金待ち shows the konbini voucher; 期限切れ says nothing will be made", async ({ page }) => {
  const email = uniqueEmail("konbini-status");
  const { orderNumber, statusToken } = insertKonbiniOrder(email);

  await openStatus(page, statusToken);
  await expect(page.getByTestId("order-number")).toHaveText(orderNumber);
  await expect(page.locator('[aria-current="step"]')).toContainText("入金待ち");
  await expect(page.getByRole("heading", { name: "コンビニでのお支払いをお待ちしています" })).toBeVisible();
  await expect(page.getByTestId("konbini-number")).toHaveText("12345678901");
  // 2030-06-07 14:59 UTC is 23:59 in Tokyo: the deadline, and the steps that name it.
  await expect(page.getByTestId("konbini-due")).toHaveText("2030/06/07 23:59（日本時間）");
  await expect(page.getByTestId("konbini-steps")).toContainText(
    "お支払い期限（2030/06/07 23:59（日本時間））まで",
  );
  await expect(page.getByTestId("expected-delivery")).toHaveCount(0);

  const db = writableDb();
  db.prepare("update orders set payment_status = 'expired' where status_token = ?").run(statusToken);
  db.close();
  await openStatus(page, statusToken);
  await expect(page.locator('[aria-current="step"]')).toContainText("期限切れ");
  await expect(
    page.getByRole("heading", { name: "お支払い期限が過ぎたため、このご注文は無効になりました" }),
  ).toBeVisible();
  await expect(page.getByText("動画は制作されません")).toBeVisible();
  await expect(page.getByRole("link", { name: "大会一覧から注文する" })).toHaveAttribute("href", "/");
  await expect(page.getByTestId("konbini-number")).toHaveCount(0);
});

test("order lookup: a match mails the status link to the order's address; a wrong address gets the same answer and no mail", async ({
  page,
}) => {
  const email = uniqueEmail("lookup");
  const stranger = uniqueEmail("lookup-stranger");
  const { orderNumber, statusToken } = insertKonbiniOrder(email);
  const answer =
    "入力内容に該当するご注文があれば、注文状況のページのリンクをご注文時のメールアドレスへお送りしました。";

  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "注文状況の確認" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "注文状況の確認" })).toBeVisible();

  // Bad input: messages beside the fields, what was typed kept.
  await page.getByLabel("注文番号").fill("1234");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByRole("button", { name: "注文状況のリンクを送信" }).click();
  await expect(page.getByText("注文番号は8桁の数字で入力してください")).toBeVisible();
  await expect(page.getByLabel("注文番号")).toHaveValue("1234");
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);

  // A wrong address: the same answer, no mail to anyone.
  await page.getByLabel("注文番号").fill(orderNumber);
  await page.getByLabel("メールアドレス").fill(stranger);
  await page.getByRole("button", { name: "注文状況のリンクを送信" }).click();
  await expect(page.getByText(answer)).toBeVisible();

  // The right address: the same answer, and the link arrives at the order's address.
  await page.goto("/order-lookup");
  await page.getByLabel("注文番号").fill(orderNumber);
  await page.getByLabel("メールアドレス").fill(email.toUpperCase());
  await page.getByRole("button", { name: "注文状況のリンクを送信" }).click();
  await expect(page.getByText(answer)).toBeVisible();
  const mail = await waitForMail(email);
  expect(mail.subject).toContain(`注文状況の確認（注文番号 ${orderNumber}）`);
  expect(statusTokenIn(mail.text)).toBe(statusToken);
  expect(mailsTo(stranger)).toHaveLength(0);
  expect(mailsTo(email)).toHaveLength(1);

  await openStatus(page, statusTokenIn(mail.text));
  await expect(page.getByTestId("order-number")).toHaveText(orderNumber);
});
