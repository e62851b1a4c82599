import { expect, test } from "@playwright/test";
import { withDb } from "../../support/db";
import { buyTwoVideos } from "../../support/flows";
import { jsEnabled, uniqueEmail, waitForMail } from "../../support/helpers";
import { loginAsAdmin, putSessionCookie } from "../../support/users";

test("a stray second payment listed and refunded from the ledger", async ({ page, browser, baseURL }) => {
  const admin = await browser.newContext();
  const me = await loginAsAdmin(admin, baseURL ?? "", uniqueEmail("stray-admin"));
  const email = uniqueEmail("stray-payer");
  const orderNumber = await buyTwoVideos(page, email, "二重 花子");

  // The customer paid a second time for the same checkout (a second tab): a second succeeded test
  // intent, whose return reaches the shop while that tab's session still holds the checkout.
  const second = `pi_test_stray${Math.random().toString(36).slice(2, 12)}`;
  const { checkoutId, total } = withDb((db) => {
    const order = db
      .prepare("select checkout_id as checkoutId, total_amount as total from orders where order_number = ?")
      .get(orderNumber) as { checkoutId: string; total: number };
    db.prepare(
      "insert into test_payment_intents (id, checkout_id, amount, status) values (?, ?, ?, 'succeeded')",
    ).run(second, order.checkoutId, order.total);
    return order;
  });
  const secondTab = await browser.newContext();
  await putSessionCookie(secondTab, baseURL ?? "", { checkoutId });
  const returned = await secondTab.newPage();
  await returned.goto(`/payment/return?payment_intent=${second}`);
  // The customer is shown the order they already have; no second order is made.
  await expect(returned).toHaveURL(/\/payment-complete$/);
  await expect(returned.getByTestId("order-number")).toHaveText(orderNumber);
  await secondTab.close();
  expect(
    withDb((db) => db.prepare("select count(*) as n from orders where checkout_id = ?").get(checkoutId)),
  ).toEqual({ n: 1 });

  // Each admin is mailed, with the way to the ledger.
  const mail = await waitForMail(me.email);
  expect(mail.subject).toContain("注文にならなかった決済");
  expect(mail.text).toContain(second);

  const ledger = await admin.newPage();
  await ledger.goto("/admin");
  await ledger
    .getByRole("navigation", { name: "管理メニュー" })
    .getByRole("link", { name: /注文にならなかった決済/ })
    .click();
  await expect(ledger).toHaveURL(/\/admin\/stray-payments$/);
  const amount = `${total.toLocaleString("ja-JP")}円`;
  const entry = ledger.locator(`[data-stray-payment="${second}"]`);
  await expect(entry).toContainText(amount);
  await expect(entry).toContainText("同じ注文手続きの2回目の決済");
  await expect(entry).toContainText("未返金");
  await expect(entry.getByRole("link", { name: `注文番号 ${orderNumber}` })).toHaveAttribute(
    "href",
    `/admin/orders/${orderNumber}`,
  );

  // 全額返金 asks first: a dialog with JavaScript, a page of its own without.
  await entry.getByRole("link", { name: /全額返金/ }).click();
  if (jsEnabled()) {
    const dialog = ledger.getByRole("dialog", { name: "この決済を全額返金しますか？" });
    await expect(dialog).toContainText(second);
    await expect(dialog).toContainText(amount);
    await dialog.getByRole("button", { name: "返金する", exact: true }).click();
  } else {
    await expect(ledger).toHaveURL(/\?confirm=\d+$/);
    await expect(ledger.getByRole("heading", { name: "この決済を全額返金しますか？" })).toBeVisible();
    await ledger.getByRole("button", { name: `${amount}を返金する` }).click();
  }
  await expect(ledger.getByRole("status").filter({ hasText: "返金しました" })).toBeVisible();
  await expect(ledger).toHaveURL(/\/admin\/stray-payments$/);
  await expect(entry).toContainText("返金済み");
  await expect(entry.getByRole("link", { name: /全額返金/ })).toHaveCount(0);

  // One refund, of the whole second payment, at the provider and in the shop; the order untouched.
  withDb((db) => {
    expect(
      db.prepare("select amount, status from test_refunds where payment_intent_id = ?").all(second),
    ).toEqual([{ amount: total, status: "succeeded" }]);
    expect(
      db
        .prepare(
          "select r.amount, r.status, r.order_id as orderId from refunds r join stray_payments s on s.id = r.stray_payment_id where s.payment_intent_id = ?",
        )
        .all(second),
    ).toEqual([{ amount: total, status: "succeeded", orderId: null }]);
  });
  await admin.close();
});

test("the sales CSV shows gross, refunds and net after an order refund", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("sales-refund-admin"));
  const contest = `返金集計テスト大会 ${test.info().project.name} ${Date.now()}`;
  const orderNumber = `8${String(Date.now()).slice(-7)}`;
  // An order of 3,000円 and 5,000円 on 2025-05-10 (Tokyo), its 5,000円 line refunded on 2025-06-02
  // (a card refund, as the order page makes it), and a failed refund that moved nothing.
  withDb((db) => {
    const { id } = db
      .prepare(
        "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, customer_email, customer_name, total_amount, line_count, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
      )
      .get(
        orderNumber,
        `sales-refund-${orderNumber}`,
        `pi_sales_refund_${orderNumber}`,
        contest,
        "sr@example.jp",
        "返金 花子",
        8000,
        2,
        Date.parse("2025-05-10T03:00:00Z"),
      ) as { id: number };
    const lineIds = [3000, 5000].map(
      (price, i) =>
        (
          db
            .prepare(
              "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
            )
            .get(id, `${orderNumber}-${i + 1}`, contest, "部門", i + 1, "選手", "縦", "vertical", price) as {
            id: number;
          }
        ).id,
    );
    const refund = db.prepare(
      "insert into refunds (order_id, payment_intent_id, line_ids, amount, method, reason, request_key, status, created_at) values (?, ?, ?, ?, 'card', '撮影できなかったため', ?, ?, ?)",
    );
    refund.run(
      id,
      `pi_sales_refund_${orderNumber}`,
      JSON.stringify([lineIds[1]]),
      5000,
      `sr-${orderNumber}-1`,
      "succeeded",
      Date.parse("2025-06-02T01:00:00Z"),
    );
    refund.run(
      id,
      `pi_sales_refund_${orderNumber}`,
      "[]",
      1000,
      `sr-${orderNumber}-2`,
      "failed",
      Date.parse("2025-06-03T01:00:00Z"),
    );
  });

  await page.goto("/admin/sales");
  await page.getByLabel("大会", { exact: true }).selectOption(contest);
  await page.getByLabel("開始日").fill("2025-05-01");
  await page.getByLabel("終了日").fill("2025-06-30");
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page.getByTestId("sales-gross")).toHaveText("8,000円");
  await expect(page.getByTestId("sales-refunds")).toHaveText("−5,000円");
  await expect(page.getByTestId("sales-total")).toHaveText("3,000円（税込）");
  await expect(page.getByRole("img", { name: /日別の売上と返金/ })).toBeVisible();
  const contestRow = page.getByRole("row").filter({ hasText: contest });
  await expect(contestRow).toContainText("8,000円");
  await expect(contestRow).toContainText("−5,000円");
  await expect(contestRow).toContainText("3,000円");

  // Only June: the refund lowers the month it was made in, not the order's.
  await page.getByLabel("開始日").fill("2025-06-01");
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page.getByTestId("sales-total")).toHaveText("−5,000円（税込）");

  await page.getByLabel("開始日").fill("2025-05-01");
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page.getByTestId("sales-total")).toHaveText("3,000円（税込）");
  const csv = await page.request.get(`/admin/sales.csv?${new URL(page.url()).searchParams.toString()}`);
  const [header = "", ...rows] = (await csv.body()).subarray(3).toString("utf8").trim().split("\r\n");
  const columns = header.split(",");
  const at = (name: string) => columns.indexOf(name);
  const cells = rows.map((row) => row.split(","));
  expect(cells.map((row) => [row[at("区分")], row[at("計上日")], row[at("明細番号")]])).toEqual([
    ["売上", "2025-05-10", `${orderNumber}-1`],
    ["売上", "2025-05-10", `${orderNumber}-2`],
    ["返金", "2025-06-02", `${orderNumber}-2`],
  ]);
  const sum = (name: string) => cells.reduce((total, row) => total + Number(row[at(name)]), 0);
  expect([sum("売上（税込）"), sum("返金（税込）"), sum("純売上（税込）")]).toEqual([8000, 5000, 3000]);
});
