import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { formatDateLong } from "../../app/lib/rules/format";
import { withDb } from "../support/db";
import { buyTwoVideos } from "../support/flows";
import { uniqueEmail } from "../support/helpers";
import { createUser, putSessionCookie } from "../support/users";

/**
 * A refund as the parent sees it: after the back-office refunds a refused
 * line, the order status page, the purchase history and the receipt say the same amounts and
 * states, JavaScript on and off. The refund is written into the e2e database as the refund core
 * leaves it (the back-office's own screens are tested with it); the views read only its row.
 */

type Bought = {
  orderId: number;
  token: string;
  paymentIntentId: string;
  lines: { id: number; price: number }[];
};

function boughtOrder(orderNumber: string): Bought {
  return withDb((db) => {
    const order = db
      .prepare("select id, status_token, payment_intent_id from orders where order_number = ?")
      .get(orderNumber) as { id: number; status_token: string; payment_intent_id: string };
    const lines = db
      .prepare("select id, price from order_lines where order_id = ? order by id")
      .all(order.id) as { id: number; price: number }[];
    return { orderId: order.id, token: order.status_token, paymentIntentId: order.payment_intent_id, lines };
  });
}

/** The admin's お断り of a line, then its refund (succeeded: by card; processing: on its way). */
function refuseAndRefund(
  bought: Bought,
  line: { id: number; price: number },
  status: "succeeded" | "processing",
) {
  withDb((db) => {
    db.prepare("update order_lines set refused = 1, refusal_note = ?, refused_at = ? where id = ?").run(
      "撮影できませんでした。",
      Date.now(),
      line.id,
    );
    db.prepare(
      `insert into refunds (order_id, payment_intent_id, line_ids, amount, method, reason, request_key, provider_refund_id, status, succeeded_at)
       values (?, ?, ?, ?, 'card', ?, ?, ?, ?, ?)`,
    ).run(
      bought.orderId,
      bought.paymentIntentId,
      JSON.stringify([line.id]),
      line.price,
      "撮影できなかったため",
      `e2e-refund-${bought.orderId}-${line.id}`,
      `re_e2e_${bought.orderId}_${line.id}`,
      status,
      status === "succeeded" ? Date.now() : null,
    );
  });
}

const yen = (amount: number) => `${amount.toLocaleString("ja-JP")}円`;

async function shoot(page: Page, name: string, project: string) {
  if (project !== "js") return;
  fs.mkdirSync(".tmp/visual", { recursive: true });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `.tmp/visual/refund-${name}-${width}.png`, fullPage: true });
  }
}

test("a refused line refunded by card: status page, purchase history and receipt agree on 返金済み and the amount after it", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const email = uniqueEmail("refund-customer");
  const orderNumber = await buyTwoVideos(page, email);
  const bought = boughtOrder(orderNumber);
  const [kept, refunded] = bought.lines as [Bought["lines"][number], Bought["lines"][number]];
  const total = kept.price + refunded.price;
  refuseAndRefund(bought, refunded, "succeeded");

  // 注文状況: the line's state and amount, 合計, 返金 and お支払い額（返金後）, when the money arrives.
  await page.goto(`/orders/${bought.token}`);
  const lines = page.getByRole("region", { name: "ご注文内容" }).getByRole("listitem");
  await expect(lines.nth(0).getByTestId("line-refund")).toHaveCount(0);
  await expect(lines.nth(1).getByTestId("line-refund")).toHaveText(`返金済み ${yen(refunded.price)}`);
  await expect(lines.nth(1).getByText("この動画は制作できませんでした")).toBeVisible();
  await expect(lines.nth(1).getByText("返金につきましては、ショップよりご連絡いたします。")).toHaveCount(0);
  await expect(page.getByTestId("order-total")).toHaveText(`${yen(total)}（税込）`);
  await expect(page.getByTestId("order-refunded")).toHaveText(`−${yen(refunded.price)}（税込）`);
  await expect(page.getByTestId("order-net")).toHaveText(`${yen(kept.price)}（税込）`);
  const details = page.getByRole("region", { name: "返金について" });
  await expect(details.getByText("理由: 撮影できなかったため")).toBeVisible();
  await expect(details.getByText(/ご利用のクレジットカードへの返金となります/)).toBeVisible();
  await shoot(page, "status", testInfo.project.name);

  // 購入履歴: お断り and 返金済み on the line, never 納品待ち; the order after refunds.
  const user = await createUser({ email });
  await putSessionCookie(context, baseURL ?? "", { userId: user.id, loggedInAt: Date.now() });
  await page.goto("/purchase-history");
  const order = page.getByRole("region", { name: `注文番号 ${orderNumber}` });
  const states = order.getByTestId("line-state");
  await expect(states.nth(0)).toHaveText("納品待ち");
  await expect(states.nth(1)).toContainText("お断り");
  await expect(states.nth(1)).toContainText(`返金済み ${yen(refunded.price)}`);
  await expect(states.nth(1)).not.toContainText("納品待ち");
  await expect(order.getByTestId("history-net")).toHaveText(`${yen(kept.price)}（税込）`);
  await shoot(page, "history", testInfo.project.name);

  // 領収書: the amount kept, its tax, the refund in words; the PDF says the same.
  await order.getByRole("link", { name: /領収書/ }).click();
  await expect(page.getByRole("heading", { name: "領収書の発行" })).toBeVisible();
  await page.getByLabel("宛名").fill("返金 花子");
  await page.getByRole("button", { name: "領収書を発行する" }).click();
  const sheet = page.getByRole("article", { name: "領収書" });
  await expect(sheet.getByTestId("receipt-total")).toHaveText(`¥${kept.price.toLocaleString("ja-JP")}-`);
  const sentence = `${formatDateLong(new Date())}に${yen(refunded.price)}を返金しました。`;
  await expect(sheet.getByTestId("receipt-refund-sentence")).toHaveText(sentence);
  await expect(sheet.getByTestId("receipt-refund")).toHaveText(`−¥${refunded.price.toLocaleString("ja-JP")}`);
  await expect(sheet.getByText("（返金済み）")).toHaveCount(1);
  await shoot(page, "receipt", testInfo.project.name);
});

test("a refund on its way reads 返金手続き中 on the status page and in the purchase history", async ({
  page,
  context,
  baseURL,
}) => {
  const email = uniqueEmail("refund-processing");
  const orderNumber = await buyTwoVideos(page, email);
  const bought = boughtOrder(orderNumber);
  const line = bought.lines[0]!;
  refuseAndRefund(bought, line, "processing");

  await page.goto(`/orders/${bought.token}`);
  await expect(page.getByTestId("line-refund")).toHaveText(`返金手続き中 ${yen(line.price)}`);
  await expect(page.getByTestId("order-refund-in-progress")).toHaveText(`−${yen(line.price)}（税込）`);
  await expect(page.getByTestId("order-refunded")).toHaveCount(0);

  const user = await createUser({ email });
  await putSessionCookie(context, baseURL ?? "", { userId: user.id, loggedInAt: Date.now() });
  await page.goto("/purchase-history");
  const states = page.getByRole("region", { name: `注文番号 ${orderNumber}` }).getByTestId("line-state");
  await expect(states.nth(0)).toContainText(`返金手続き中 ${yen(line.price)}`);
  await expect(states.nth(0)).not.toContainText("納品待ち");
});

test("an order refunded whole: nothing on its way, no receipt link, and the receipt page says why instead of a 0円 receipt", async ({
  page,
}, testInfo) => {
  const orderNumber = await buyTwoVideos(page, uniqueEmail("refund-whole"));
  const bought = boughtOrder(orderNumber);
  const total = bought.lines.reduce((sum, line) => sum + line.price, 0);
  // A typed amount (the whole order), as the back-office's 金額を指定 makes it: it names no line.
  withDb((db) =>
    db
      .prepare(
        `insert into refunds (order_id, payment_intent_id, line_ids, amount, method, reason, request_key, provider_refund_id, status, succeeded_at)
         values (?, ?, '[]', ?, 'card', '大会の中止のため', ?, ?, 'succeeded', ?)`,
      )
      .run(
        bought.orderId,
        bought.paymentIntentId,
        total,
        `e2e-refund-whole-${bought.orderId}`,
        `re_e2e_whole_${bought.orderId}`,
        Date.now(),
      ),
  );

  await page.goto(`/orders/${bought.token}`);
  await expect(page.getByRole("heading", { name: "このご注文でお届けする動画はありません" })).toBeVisible();
  await expect(page.getByTestId("expected-delivery")).toHaveCount(0);
  await expect(page.getByTestId("order-net")).toHaveText("0円（税込）");
  await expect(page.getByRole("link", { name: "領収書を発行する・表示する" })).toHaveCount(0);
  await shoot(page, "status-whole", testInfo.project.name);

  const response = await page.goto(`/orders/${bought.token}/receipt`);
  expect(response?.status()).toBe(409);
  await expect(page.getByRole("heading", { name: "領収書を発行できません" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("全額を返金しました");
  await expect(page.getByTestId("receipt-refunds")).toHaveText(
    `${formatDateLong(new Date())}に${yen(total)}を返金しました。`,
  );
  await expect(page.getByLabel("宛名")).toHaveCount(0);
  const pdf = await page.request.get(`/orders/${bought.token}/receipt.pdf`);
  expect(pdf.status()).toBe(409);
});
