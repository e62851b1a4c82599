import { expect, test } from "@playwright/test";
import { e2eDbFile } from "../support/work-dir";
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";

/** A delivered one-video order with its download page, written straight into the e2e server's database. */
function deliveredOrder(options: { expiresAt: number }) {
  const db = new Database(e2eDbFile());
  try {
    const orderNumber = String(90_000_000 + Math.floor(Math.random() * 9_999_999));
    const orderId = Number(
      db
        .prepare(
          `insert into orders (order_number, checkout_id, payment_intent_id, contest_name, customer_email,
             customer_name, total_amount, line_count, status, status_token, created_at)
           values (?, ?, ?, '返却テスト大会', ?, '返却 花子', 3000, 1, '対応済み', ?, ?)`,
        )
        .run(
          orderNumber,
          `refused-${orderNumber}`,
          `pi_refused_${orderNumber}`,
          `refused-${orderNumber}@example.jp`,
          randomBytes(16).toString("hex"),
          Date.now(),
        ).lastInsertRowid,
    );
    const lineId = Number(
      db
        .prepare(
          `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
             style, orientation, price, status, video_download_url, created_at)
           values (?, ?, '返却テスト大会', 'キッズ部門', 7, '返却 さくら', '縦', 'vertical', 3000, '対応済み', ?, ?)`,
        )
        .run(orderId, `${orderNumber}-1`, `https://videos.example.jp/${orderNumber}.mp4`, Date.now())
        .lastInsertRowid,
    );
    const pageId = randomBytes(16).toString("base64url");
    db.prepare("insert into download_pages (id, order_id, created_at, expires_at) values (?, ?, ?, ?)").run(
      pageId,
      orderId,
      Date.now(),
      options.expiresAt,
    );
    return { orderNumber, lineId, pageId };
  } finally {
    db.close();
  }
}

function startDownloadAt(lineId: number, at: number) {
  const db = new Database(e2eDbFile());
  db.prepare("update order_lines set download_started_at = ? where id = ?").run(at, lineId);
  db.close();
}

test("a second download after the 24 hours shows the shop's page (410) with お問い合わせ for the order", async ({
  page,
}) => {
  const { orderNumber, lineId, pageId } = deliveredOrder({ expiresAt: Date.now() + 7 * 86_400_000 });
  await page.goto(`/download/${pageId}`);
  const link = page.getByRole("link", { name: "縦型ダウンロード" });
  await expect(link).toBeVisible();

  // The page was left open; meanwhile the video was downloaded more than 24 hours ago.
  startDownloadAt(lineId, Date.now() - 25 * 3600_000);
  const answer = page.waitForResponse((response) => response.url().includes("?refused="));
  await link.click();
  expect((await answer).status()).toBe(410);
  await expect(page).toHaveURL(new RegExp(`/download/${pageId}\\?refused=${lineId}$`));
  const alert = page.getByRole("alert").filter({ hasText: "ダウンロード済み" });
  await expect(alert).toContainText("この動画はダウンロード済みです。再度必要な場合はお問い合わせください。");
  await expect(alert).toContainText("返却 さくら");
  await expect(page.getByRole("banner")).toBeVisible();

  await alert.getByRole("link", { name: `お問い合わせ（注文番号 ${orderNumber}）` }).click();
  await expect(page).toHaveURL(new RegExp(`/contact\\?order=${orderNumber}$`));
  await expect(
    page.getByRole("heading", { name: `注文番号 ${orderNumber} についてのお問い合わせ` }),
  ).toBeVisible();
  const mailto =
    (await page.getByRole("link", { name: "メールでお問い合わせ（注文番号入り）" }).getAttribute("href")) ??
    "";
  expect(decodeURIComponent(mailto)).toContain(`注文番号 ${orderNumber}`);

  // A made-up order number fills in nothing.
  await page.goto("/contact?order=%3Cb%3E1%3C%2Fb%3E");
  await expect(page.getByRole("heading", { name: "お問い合わせ", exact: true })).toBeVisible();
  await expect(page.getByText("についてのお問い合わせ")).toHaveCount(0);
});

test("a download from an expired download page shows the shop's page (410) with お問い合わせ for the order", async ({
  page,
}) => {
  const { orderNumber, lineId, pageId } = deliveredOrder({ expiresAt: Date.now() - 60_000 });
  const response = await page.goto(`/download/${pageId}/${lineId}/vertical`);
  expect(response?.status()).toBe(410);
  await expect(page).toHaveURL(new RegExp(`/download/${pageId}\\?refused=${lineId}$`));
  const alert = page.getByRole("alert").filter({ hasText: "有効期限が切れています" });
  await expect(alert).toContainText(
    "ダウンロードの有効期限が切れています。再度必要な場合はお問い合わせください。",
  );
  await expect(alert.getByRole("link", { name: `お問い合わせ（注文番号 ${orderNumber}）` })).toHaveAttribute(
    "href",
    `/contact?order=${orderNumber}`,
  );
  // A download manager or a resume still gets the short answer.
  expect(
    (await page.request.get(`/download/${pageId}/${lineId}/vertical`, { maxRedirects: 0 })).status(),
  ).toBe(410);
});

test("a refunded line is not downloadable: the page offers no download and its link answers 410 with the reason", async ({
  page,
}) => {
  const { orderNumber, lineId, pageId } = deliveredOrder({ expiresAt: Date.now() + 7 * 86_400_000 });
  const db = new Database(e2eDbFile());
  try {
    const { id } = db.prepare("select id from orders where order_number = ?").get(orderNumber) as {
      id: number;
    };
    db.prepare(
      `insert into refunds (order_id, payment_intent_id, line_ids, amount, reason, request_key, status)
       values (?, ?, ?, 3000, '撮影できませんでした', ?, 'succeeded')`,
    ).run(id, `pi_refused_${orderNumber}`, JSON.stringify([lineId]), `refund-${orderNumber}`);
  } finally {
    db.close();
  }
  await page.goto(`/download/${pageId}`);
  await expect(page.getByText("ご返金の対象となったため、この動画はダウンロードできません。")).toBeVisible();
  await expect(page.getByRole("link", { name: "縦型ダウンロード" })).toHaveCount(0);

  // A link kept from before the refund: the page says why, with お問い合わせ for the order.
  const response = await page.goto(`/download/${pageId}/${lineId}/vertical`);
  expect(response?.status()).toBe(410);
  const alert = page.getByRole("alert");
  await expect(alert).toContainText(
    "この動画はご返金の対象となったため、ダウンロードできません。ご不明な点はお問い合わせください。",
  );
  await expect(alert.getByRole("link", { name: `お問い合わせ（注文番号 ${orderNumber}）` })).toBeVisible();
  expect(
    (await page.request.get(`/download/${pageId}/${lineId}/vertical`, { maxRedirects: 0 })).status(),
  ).toBe(410);
});
