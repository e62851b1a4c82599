import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { withDb } from "../../support/db";
import { uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";
import { photograph } from "../../support/visual";
import { axeViolations } from "../../support/axe";

/**
 * An order with discounts, after the order, JavaScript on and off: its status page and its receipt
 * give the 割引 lines and the tax on what was paid; /admin/sales gives the discount, the coupon and
 * a CSV with the new columns at the end. The order is written as the shop stores one (the price
 * rule and the payment are the checkout's specs'): 3,000円 縦 and 4,500円 横 with 早割 −500,
 * セット割 −600 and a 10 % coupon −640, paid 5,760円 (tax 523円; the list total's would be 681円).
 * The admin's order page gives the same breakdown. With JS on, the four screens are photographed
 * on a phone and a desktop.
 */

function seedDiscountedOrder(contest: string, code: string) {
  const token = crypto.randomBytes(16).toString("hex");
  const coupon = `クーポン（${code}）`;
  const lines = [
    {
      style: "縦",
      orientation: "vertical",
      listPrice: 3000,
      price: 1980,
      discounts: [
        { kind: "early_bird", name: "早割", amount: 500 },
        { kind: "set", name: "セット割", amount: 300 },
        { kind: "coupon", name: coupon, amount: 220 },
      ],
    },
    {
      style: "横",
      orientation: "horizontal",
      listPrice: 4500,
      price: 3780,
      discounts: [
        { kind: "set", name: "セット割", amount: 300 },
        { kind: "coupon", name: coupon, amount: 420 },
      ],
    },
  ];
  const discounts = [
    { kind: "early_bird", name: "早割", amount: 500 },
    { kind: "set", name: "セット割", amount: 600 },
    { kind: "coupon", name: coupon, amount: 640 },
  ];
  const orderNumber = `8${String(Date.now()).slice(-6)}${crypto.randomInt(10)}`;
  withDb((db) => {
    const { id } = db
      .prepare(
        `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name,
           bib_number_label, customer_email, customer_name, total_amount, list_total, discounts, coupon_code,
           line_count, paid_at, created_at)
         values (?, ?, ?, ?, ?, 'ゼッケン', ?, '割引 花子', 5760, 7500, ?, ?, 2, ?, ?) returning id`,
      )
      .get(
        token,
        orderNumber,
        `discount-${token}`,
        `pi_discount_${token}`,
        contest,
        uniqueEmail("discount-order"),
        JSON.stringify(discounts),
        code,
        Date.now(),
        Date.now(),
      ) as { id: number };
    lines.forEach((line, index) =>
      db
        .prepare(
          `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
             style, orientation, price, list_price, discounts) values (?, ?, ?, 'キッズ部門', 7, '割引 一郎', ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          `${orderNumber}-${index + 1}`,
          contest,
          line.style,
          line.orientation,
          line.price,
          line.listPrice,
          JSON.stringify(line.discounts),
        ),
    );
  });
  return { token, orderNumber };
}

test("a discounted order: 注文状況 and the receipt give the 割引 lines and the tax on what was paid; 売上集計 and its CSV the discount", async ({
  page,
  context,
  baseURL,
}) => {
  const project = test.info().project.name;
  const contest = `割引の大会 ${project} ${Date.now()}`;
  const code = `E2E${project.replace(/\W/g, "").toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  const { token, orderNumber } = seedDiscountedOrder(contest, code);

  // 注文状況: each line's regular price struck through, then 小計（通常価格）, each discount and 合計.
  await page.goto(`/orders/${token}`);
  const lines = page.getByRole("region", { name: "ご注文内容" });
  await expect(lines.locator("del").first()).toHaveText("通常価格 3,000円");
  await expect(lines.getByTestId("line-discounts").first()).toContainText("早割 −500円");
  await expect(lines.getByText("小計（通常価格）")).toBeVisible();
  await expect(lines.getByTestId("order-discount")).toHaveText([
    "早割−500円",
    "セット割−600円",
    `クーポン（${code}）−640円`,
  ]);
  await expect(page.getByTestId("order-total")).toHaveText("5,760円（税込）");
  await photograph(page, "i33-order-status-discounts");

  // The receipt: the items at list price, each 割引 negative, the tax on 5,760円.
  await page.getByRole("link", { name: "領収書を発行する・表示する" }).click();
  await page.getByLabel("宛名").fill("割引 花子");
  await page.getByRole("button", { name: "領収書を発行する" }).click();
  await expect(page.getByTestId("receipt-total")).toHaveText("¥5,760-");
  const sheet = page.getByRole("article", { name: "領収書" });
  await expect(sheet.getByRole("cell", { name: "¥4,500" })).toBeVisible();
  await expect(sheet.getByTestId("receipt-discount")).toHaveText(["−¥500", "−¥600", "−¥640"]);
  await expect(sheet.getByRole("rowheader", { name: `割引 クーポン（${code}）` })).toBeVisible();
  await expect(page.getByTestId("receipt-tax")).toHaveText("10%対象 ¥5,760（うち消費税 ¥523）");
  await photograph(page, "i33-receipt-discounts");

  // The admin's order page: the same breakdown, each line's list price struck through.
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("discount-sales-admin"));
  await page.goto(`/admin/orders/${orderNumber}`);
  await expect(page.getByTestId("order-小計（通常価格）")).toHaveText("7,500円（税込）");
  await expect(page.getByTestId(`order-クーポン（${code}）`)).toHaveText("−640円");
  await expect(page.getByTestId("order-合計")).toHaveText("5,760円（税込）");
  await expect(page.locator("[data-line] del").first()).toHaveText("通常価格 3,000円");
  await expect(page.getByTestId("line-discounts").first()).toContainText("早割 −500円");
  await photograph(page, "i33-admin-order-discounts");

  // 売上集計: the contest's 総額（定価）, 割引 and 売上, and the coupon's row.
  await page.goto("/admin/sales");
  await page.getByLabel("大会", { exact: true }).selectOption(contest);
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page.getByTestId("sales-list-gross")).toHaveText("7,500円");
  await expect(page.getByTestId("sales-discounts")).toHaveText("−1,740円");
  await expect(page.getByTestId("sales-gross")).toHaveText("5,760円");
  await expect(page.getByTestId("sales-coupons").getByRole("row", { name: new RegExp(code) })).toContainText(
    "1件",
  );
  await expect(page.getByTestId("sales-coupons").getByRole("row", { name: new RegExp(code) })).toContainText(
    "−640円",
  );
  await photograph(page, "i33-sales-discounts");
  expect(await axeViolations(page)).toEqual([]);

  const csv = await page.request.get(`/admin/sales.csv?${new URL(page.url()).searchParams.toString()}`);
  const rows = (await csv.body())
    .subarray(3)
    .toString("utf8")
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
  expect(rows[0]!.slice(-4)).toEqual(["定価（税込）", "割引（税込）", "割引後（税込）", "クーポンコード"]);
  expect(rows[0]!.slice(0, 2)).toEqual(["注文番号", "明細番号"]);
  expect(rows.slice(1).map((row) => row.slice(-4))).toEqual([
    ["3000", "1020", "1980", code],
    ["4500", "720", "3780", code],
  ]);
});
