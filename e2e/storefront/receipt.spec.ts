import { expect, test } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { e2eDb } from "../support/db";
import { buyTwoVideos } from "../support/flows";
import { uniqueEmail } from "../support/helpers";

/** The order's status page token, as the confirmation mail would carry it. */
function statusTokenOf(orderNumber: string): string {
  const db = e2eDb();
  try {
    const row = db.prepare("select status_token from orders where order_number = ?").get(orderNumber) as
      { status_token: string } | undefined;
    if (!row) throw new Error(`no order ${orderNumber}`);
    return row.status_token;
  } finally {
    db.close();
  }
}

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

// The e2e server is configured with SELLER_INVOICE_NUMBER=T1234567890123 (e2e/support/server.mjs).
test("a paid order's 領収書: the addressee entered once, the receipt and its PDF, a re-issue marked 再発行", async ({
  page,
}) => {
  const orderNumber = await buyTwoVideos(page, uniqueEmail("receipt"));
  const token = statusTokenOf(orderNumber);
  const url = `/orders/${token}/receipt`;

  // Before the first issue the PDF leads to the page, where the addressee is asked for.
  const early = await page.request.get(`${url}.pdf`, { maxRedirects: 0 });
  expect(early.status()).toBe(302);

  const response = await page.goto(url);
  expect(response?.headers()["referrer-policy"]).toBe("same-origin");
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.getByRole("heading", { name: "領収書の発行" })).toBeVisible();
  await expect(page.getByText("宛名は発行後に変更できません")).toBeVisible();

  // Too long: the message, and what was typed is still there.
  const tooLong = "株式会社".repeat(16);
  await page.getByLabel("宛名").fill(tooLong);
  await page.getByRole("button", { name: "領収書を発行する" }).click();
  await expect(page.getByText("宛名は60文字以内で入力してください")).toBeVisible();
  await expect(page.getByLabel("宛名")).toHaveValue(tooLong);

  await page.getByLabel("宛名").fill("  購入 太郎 ");
  await page.getByRole("button", { name: "領収書を発行する" }).click();
  await expect(page).toHaveURL(new RegExp(`${url}$`));
  const sheet = page.getByRole("article", { name: "領収書" });
  await expect(sheet.getByRole("heading", { name: "領収書", exact: true })).toBeVisible();
  await expect(sheet.getByText("（適格簡易請求書）")).toBeVisible();
  await expect(sheet.getByTestId("receipt-addressee")).toHaveText("購入 太郎");
  await expect(sheet.getByTestId("receipt-total")).toHaveText("¥8,000-");
  await expect(sheet.getByTestId("receipt-tax")).toHaveText("10%対象 ¥8,000（うち消費税 ¥727）");
  await expect(sheet.getByText("但し 動画制作代として")).toBeVisible();
  await expect(sheet.getByText("登録番号 T1234567890123")).toBeVisible();
  await expect(sheet.getByText("再発行")).toHaveCount(0);

  // The PDF of the same issue: not a re-issue.
  const pdf = await page.request.get(`${url}.pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["cache-control"]).toBe("private, no-store");
  expect(pdf.headers()["content-disposition"]).toContain(
    `filename*=UTF-8''${encodeURIComponent(`領収書_${orderNumber}.pdf`)}`,
  );
  const text = await pdfText(await pdf.body());
  for (const expected of [
    "領収書",
    "適格簡易請求書",
    "購入 太郎",
    "株式会社コンテストビデオ（デモ）",
    "登録番号 T1234567890123",
    "¥8,000",
    "うち消費税 ¥727",
  ])
    expect(text).toContain(expected);
  expect(text).not.toContain("再発行");
  await page.reload();
  await expect(sheet.getByText("再発行")).toHaveCount(0);

  // 再発行する: the same addressee, marked 再発行, on the page and in the PDF.
  await page.getByRole("button", { name: "再発行する" }).click();
  await expect(sheet.getByText("再発行", { exact: true })).toBeVisible();
  await expect(sheet.getByText("この領収書は再発行したものです")).toBeVisible();
  await expect(sheet.getByTestId("receipt-addressee")).toHaveText("購入 太郎");
  const reissued = await pdfText(await (await page.request.get(`${url}.pdf`)).body());
  expect(reissued).toContain("再発行");
  expect(reissued).toContain("購入 太郎");
});

test("receipts of unknown orders are not found, and the PDF link shows nothing without a real token", async ({
  page,
}) => {
  const unknown = await page.goto(`/orders/${"0".repeat(32)}/receipt`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "ご注文が見つかりません" })).toBeVisible();
  expect((await page.request.get(`/orders/${"0".repeat(32)}/receipt.pdf`)).status()).toBe(404);
  expect((await page.request.get("/orders/not-a-token/receipt.pdf")).status()).toBe(404);
});
