import { expect, test } from "@playwright/test";
import { tokyoDay } from "../../../app/lib/rules/tokyo-date";
import { withDb } from "../../support/db";
import { buyTwoVideos } from "../../support/flows";
import { jsEnabled, mailsTo, uniqueEmail } from "../../support/helpers";
import { createUser, loginAsAdmin, putSessionCookie } from "../../support/users";

/**
 * A refused line's refund, the whole story through the screens, JavaScript on and off: a parent buys two videos,
 * the admin marks one お断り and refunds it in the same step from the order list, and then every
 * place that speaks of the money says the same: the 返金のお知らせ mail, the order status page,
 * the purchase history, the receipt and the sales CSV.
 */

const yen = (amount: number) => `${amount.toLocaleString("ja-JP")}円`;

function linePrices(orderNumber: string) {
  return withDb(
    (db) =>
      db
        .prepare(
          "select l.line_number as lineNumber, l.price from order_lines l join orders o on o.id = l.order_id where o.order_number = ? order by l.id",
        )
        .all(orderNumber) as { lineNumber: string; price: number }[],
  );
}

function statusToken(orderNumber: string) {
  return withDb(
    (db) =>
      (
        db.prepare("select status_token as token from orders where order_number = ?").get(orderNumber) as {
          token: string;
        }
      ).token,
  );
}

test("an お断り line refunded by card: the mail, status page, purchase history, receipt and sales CSV agree", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("refund-agree");
  const orderNumber = await buyTwoVideos(page, email, "返金 一致");
  const [kept, refused] = linePrices(orderNumber) as [
    { lineNumber: string; price: number },
    { lineNumber: string; price: number },
  ];

  // The admin: お断り of the second line, its refund in the same step.
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("refund-agree-admin"));
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/orders?tab=pending&q=${orderNumber}`);
  const group = admin.locator(`[data-order="${orderNumber}"]`);
  const row = group.getByRole("row").filter({ hasText: refused.lineNumber });
  await row.getByText("お断りにする（制作できない場合）").click();
  await row.getByLabel(`${refused.lineNumber} のお客様へのお知らせ`).fill("撮影できませんでした。");
  await expect(
    row.getByRole("checkbox", { name: `この明細の代金（${yen(refused.price)}）を返金する` }),
  ).toBeChecked();
  await row.getByRole("button", { name: "お断りにしてお客様に知らせる" }).click();
  await expect(admin.getByText("お断りにして返金しました")).toBeVisible();

  // The mail: the amount, and that it goes back to the card.
  await expect
    .poll(() => mailsTo(email).find((mail) => mail.subject.includes("返金のお知らせ"))?.text ?? "", {
      timeout: 15_000,
    })
    .toContain(yen(refused.price));
  const mail = mailsTo(email).find((m) => m.subject.includes("返金のお知らせ"))!;
  expect(mail.text).toContain("クレジットカード");
  expect(mail.text).toContain(orderNumber);

  // The status page: the refused line 返金済み, the amount after the refund.
  await page.goto(`/orders/${statusToken(orderNumber)}`);
  const lines = page.getByRole("region", { name: "ご注文内容" }).getByRole("listitem");
  await expect(lines.nth(1).getByTestId("line-refund")).toHaveText(`返金済み ${yen(refused.price)}`);
  await expect(page.getByTestId("order-refunded")).toHaveText(`−${yen(refused.price)}（税込）`);
  await expect(page.getByTestId("order-net")).toHaveText(`${yen(kept.price)}（税込）`);

  // The purchase history: the same line state and amount.
  const user = await createUser({ email });
  await putSessionCookie(context, baseURL ?? "", { userId: user.id, loggedInAt: Date.now() });
  await page.goto("/purchase-history");
  const order = page.getByRole("region", { name: `注文番号 ${orderNumber}` });
  await expect(order.getByTestId("line-state").nth(1)).toContainText(`返金済み ${yen(refused.price)}`);
  await expect(order.getByTestId("history-net")).toHaveText(`${yen(kept.price)}（税込）`);

  // The receipt: what the shop kept.
  await order.getByRole("link", { name: /領収書/ }).click();
  await page.getByLabel("宛名").fill("返金 一致");
  await page.getByRole("button", { name: "領収書を発行する" }).click();
  const sheet = page.getByRole("article", { name: "領収書" });
  await expect(sheet.getByTestId("receipt-total")).toHaveText(`¥${kept.price.toLocaleString("ja-JP")}-`);
  await expect(sheet.getByTestId("receipt-refund")).toHaveText(`−¥${refused.price.toLocaleString("ja-JP")}`);

  // The sales CSV of today: the two lines sold, the refused one refunded, the net what was kept.
  const today = tokyoDay(new Date());
  const csv = await admin.request.get(`/admin/sales.csv?from=${today}&to=${today}`);
  expect(csv.status()).toBe(200);
  const [header = "", ...rows] = (await csv.body()).subarray(3).toString("utf8").trim().split("\r\n");
  const columns = header.split(",");
  const at = (name: string) => columns.indexOf(name);
  const own = rows
    .map((line) => line.split(","))
    .filter((cells) => cells.some((cell) => cell.startsWith(orderNumber)));
  expect(own.map((cells) => [cells[at("区分")], cells[at("明細番号")]])).toEqual([
    ["売上", kept.lineNumber],
    ["売上", refused.lineNumber],
    ["返金", refused.lineNumber],
  ]);
  const sum = (name: string) => own.reduce((total, cells) => total + Number(cells[at(name)]), 0);
  expect([sum("売上（税込）"), sum("返金（税込）"), sum("純売上（税込）")]).toEqual([
    kept.price + refused.price,
    refused.price,
    kept.price,
  ]);
  await adminContext.close();
});
