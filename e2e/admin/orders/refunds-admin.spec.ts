import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { e2eDb } from "../../support/db";
import { buyTwoVideos, checkoutTwoVideosUntilPayment } from "../../support/flows";
import { jsEnabled, mailsTo, routerSettled, uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";

/** The order's refunds as the database holds them, oldest first. */
function refundsOf(orderNumber: string) {
  const db = e2eDb();
  try {
    return db
      .prepare(
        "select r.amount, r.status, r.line_ids as lineIds, r.method from refunds r join orders o on o.id = r.order_id where o.order_number = ? order by r.id",
      )
      .all(orderNumber) as { amount: number; status: string; lineIds: string; method: string }[];
  } finally {
    db.close();
  }
}

const refundMails = (email: string) =>
  mailsTo(email).filter((mail) => mail.subject.includes("返金のお知らせ"));

/** The page on a phone and a laptop, for a look (.tmp/visual), once: in the js project. */
async function screenshots(page: Page, name: string) {
  if (test.info().project.name !== "js") return;
  fs.mkdirSync(".tmp/visual", { recursive: true });
  const size = page.viewportSize();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `.tmp/visual/${name}-${width}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** 確認する on the order page's refund form, then the confirmation's question. */
async function review(page: Page, amountText: RegExp | string) {
  await page.getByRole("button", { name: "確認する" }).click();
  await expect(page.getByText(amountText)).toBeVisible();
}

test("an お断り line refunded by card from the order list, a second line from the order page; a double submit refunds once", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("refund-card");
  const orderNumber = await buyTwoVideos(page, email, "返金 太郎");

  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("refund-admin"));
  const admin = await adminContext.newPage();

  // お断り with its refund, in one step from the order list.
  await admin.goto(`/admin/orders?tab=pending&q=${orderNumber}`);
  const group = admin.locator(`[data-order="${orderNumber}"]`);
  await group.getByText("お断りにする（制作できない場合）").first().click();
  await group
    .getByLabel(`${orderNumber}-1 のお客様へのお知らせ`)
    .fill("撮影に不具合があり、この演技の動画をご用意できませんでした。");
  const refundBox = group.getByRole("checkbox", { name: /この明細の代金（[\d,]+円）を返金する/ }).first();
  await expect(refundBox).toBeChecked();
  await group.getByRole("button", { name: "お断りにしてお客様に知らせる" }).first().click();
  await expect(admin.getByText("お断りにして返金しました")).toBeVisible();
  await expect(group.getByText("一部返金")).toBeVisible();
  const firstRow = group.getByRole("row").filter({ hasText: `${orderNumber}-1` });
  await expect(firstRow.getByText("返金済み")).toBeVisible();
  await expect(firstRow.getByRole("button", { name: /お断りを取り消す/ })).toHaveCount(0);
  await expect.poll(() => refundMails(email).length, { timeout: 15_000 }).toBe(1);
  await expect
    .poll(() => mailsTo(email).find((mail) => mail.subject.includes("お断り"))?.text ?? "", {
      timeout: 15_000,
    })
    .toContain("は返金いたします");
  const [first] = refundsOf(orderNumber);
  expect(first).toMatchObject({ status: "succeeded", method: "card" });

  // 返金あり lists it; the order page shows the line 返金済み.
  await admin.goto(`/admin/orders?tab=pending&refund=1&q=${orderNumber}`);
  await expect(admin.getByRole("checkbox", { name: "返金あり" })).toBeChecked();
  await screenshots(admin, "order-list-refund");
  await admin.getByRole("link", { name: `注文番号 ${orderNumber}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderNumber}$`));
  await expect(admin.locator(`[data-line="${orderNumber}-1"]`).getByText("返金済み")).toBeVisible();
  await expect(admin.getByRole("region", { name: "返金履歴" }).getByText("返金済み")).toBeVisible();

  // A mistake comes back beside its field with what was typed.
  await admin.getByLabel("または返金額（円）").fill("abc");
  await admin.getByLabel("返金の理由").fill("残りの動画も制作できませんでした");
  await admin.getByRole("button", { name: "確認する" }).click();
  await expect(
    admin.getByText("返金額は数字だけで入力してください（空白や記号は使えません。例: 3000）"),
  ).toBeVisible();
  await expect(admin.getByLabel("返金の理由")).toHaveValue("残りの動画も制作できませんでした");
  // Other notations Number() would read (0x10 as 16, 1e3 as 1,000) are refused the same way, and kept.
  for (const typed of ["0x10", "1e3"]) {
    await admin.getByLabel("または返金額（円）").fill(typed);
    await admin.getByRole("button", { name: "確認する" }).click();
    await expect(
      admin.getByText("返金額は数字だけで入力してください（空白や記号は使えません。例: 3000）"),
    ).toBeVisible();
    await expect(admin.getByLabel("または返金額（円）")).toHaveValue(typed);
    await expect(admin.getByText(/円を返金します。よろしいですか？/)).toHaveCount(0);
  }

  // The second line from the order page: 確認する → the question → 返金する, double-clicked.
  await admin.getByLabel("または返金額（円）").fill("");
  await admin.getByRole("checkbox", { name: new RegExp(`${orderNumber}-2`) }).check();
  await review(admin, /^[\d,]+円を返金します。よろしいですか？$/);
  await routerSettled(admin);
  // What 返金する posts, kept to post again after the refund (a replayed post).
  const confirmation = admin.locator("form").filter({ has: admin.getByRole("button", { name: "返金する" }) });
  const fields = Object.fromEntries(
    await confirmation
      .locator('input[type="hidden"]')
      .evaluateAll((inputs) =>
        inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
      ),
  ) as Record<string, string>;
  await admin.getByRole("button", { name: "返金する" }).dblclick();
  await expect(admin.getByText("返金しました", { exact: true })).toBeVisible();
  const replay = await admin.request.post(`/admin/orders/${orderNumber}`, {
    form: { ...fields, intent: "refund" },
    headers: { Origin: new URL(admin.url()).origin },
    maxRedirects: 0,
  });
  expect(replay.status()).toBe(303);
  await admin.reload();
  await expect(admin.getByText("この注文は全額返金済み（または返金手続き中）です。")).toBeVisible();
  await expect(admin.getByTestId("order-返金後の金額")).toHaveText("0円（税込）");
  // Refunded from the order page without お断り: the page says it is still to be made and delivered.
  await expect(
    admin.locator(`[data-line="${orderNumber}-2"]`).getByTestId("refunded-still-to-make"),
  ).toBeVisible();
  await expect(
    admin.locator(`[data-line="${orderNumber}-1"]`).getByTestId("refunded-still-to-make"),
  ).toHaveCount(0);
  expect(refundsOf(orderNumber)).toHaveLength(2);
  await expect.poll(() => refundMails(email).length, { timeout: 15_000 }).toBe(2);
  // No third mail arrives late.
  await admin.waitForTimeout(1000);
  expect(refundMails(email)).toHaveLength(2);

  await adminContext.close();
});

test("a konbini refund: 返金手続き中 until the customer's bank transfer (テストモード), then 返金済み", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("refund-konbini");
  await checkoutTwoVideosUntilPayment(page, email, "コンビニ 返金");
  await page.getByRole("button", { name: /コンビニ払いで注文する/ }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
  const orderNumber = (await page.getByTestId("order-number").textContent())?.trim() ?? "";
  await page.getByRole("link", { name: "注文状況を確認する" }).click();
  await expect(page).toHaveURL(/\/orders\/[0-9a-f]{32}$/);
  const statusPath = new URL(page.url()).pathname;

  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("refund-konbini-admin"));
  const admin = await adminContext.newPage();
  await admin.goto(statusPath);
  await admin.getByRole("button", { name: "店頭で支払う（テスト）" }).click();
  await expect(admin.locator('[aria-current="step"]')).toContainText("制作中");

  await admin.goto(`/admin/orders/${orderNumber}`);
  await admin.getByLabel("または返金額（円）").fill("1,000");
  await admin.getByLabel("返金の理由").fill("一部の動画をお届けできなかったため");
  await review(admin, "1,000円を返金します。よろしいですか？");
  // 戻る keeps what was typed.
  await admin.getByRole("button", { name: "戻る" }).click();
  await expect(admin.getByLabel("返金の理由")).toHaveValue("一部の動画をお届けできなかったため");
  await review(admin, "1,000円を返金します。よろしいですか？");
  await admin.getByRole("button", { name: "返金する" }).click();
  await expect(
    admin.getByText("返金の手続きを開始しました（コンビニ払い: お客様の口座登録待ち）"),
  ).toBeVisible();
  const history = admin.getByRole("region", { name: "返金履歴" });
  await expect(history.getByText("返金手続き中")).toBeVisible();
  expect(refundsOf(orderNumber)).toMatchObject([{ amount: 1000, status: "processing", method: "konbini" }]);
  await expect.poll(() => refundMails(email).length, { timeout: 15_000 }).toBe(1);
  expect(refundMails(email)[0]?.text).toContain("銀行振込");

  await admin.goto(`/admin/orders?tab=pending&refund=1&q=${orderNumber}`);
  await expect(admin.locator(`[data-order="${orderNumber}"]`).getByText("返金手続き中")).toBeVisible();
  await admin.getByRole("link", { name: `注文番号 ${orderNumber}` }).click();
  await admin.getByRole("button", { name: "テストモード: お客様の口座に振り込まれたことにする" }).click();
  await expect(admin.getByText("返金済みにしました（テストモード）")).toBeVisible();
  await expect(history.getByText("返金済み")).toBeVisible();
  await expect(admin.getByRole("button", { name: /テストモード/ })).toHaveCount(0);
  expect(refundsOf(orderNumber)).toMatchObject([{ status: "succeeded" }]);

  // The page with a refund made and the form still offered, on a phone and a laptop.
  await screenshots(admin, "order-page");
  await adminContext.close();
});
