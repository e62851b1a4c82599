import { expect, test } from "@playwright/test";
import { e2eDbFile } from "../../support/work-dir";
import Database from "better-sqlite3";
import { insertOrder } from "../../support/account-helpers";
import { buyTwoVideos } from "../../support/flows";
import { jsEnabled, uniqueEmail, waitForMail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";
import { videoBytes } from "../../../tests/helpers/test-videos";

// Delivered by URL: no file of the shop is stored or read, so the object-storage projects leave it
// out (@no-stored-file in playwright.config.ts); the next test is the one about stored files.
test(
  "an order from the storefront is delivered: URLs checked, mail with the download page, one download each, expiry",
  {
    tag: "@no-stored-file",
  },
  async ({ page, browser, baseURL }) => {
    const email = uniqueEmail("delivery");
    const orderNumber = await buyTwoVideos(page, email, "納品 次郎");

    const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
    await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("delivery-admin"));
    const admin = await adminContext.newPage();
    await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
    const group = admin.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` });
    await expect(group).toBeVisible();
    await expect(group.getByRole("table")).toContainText("キッズ部門");
    await expect(group.getByRole("table")).toContainText("エントリー番号 1");

    const first = group.getByLabel(`${orderNumber}-1 のダウンロードURL`);
    await expect(first).toHaveAttribute("type", "url");
    await first.fill("https://videos.example.jp/kids-1.mp4");
    await group.getByRole("button", { name: "納品" }).click();
    await expect(admin.getByText("すべての動画のダウンロードURLを入力してください。")).toBeVisible();
    await expect(admin.getByLabel(`${orderNumber}-1 のダウンロードURL`)).toHaveValue(
      "https://videos.example.jp/kids-1.mp4",
    );

    await admin
      .getByLabel(`${orderNumber}-2 のダウンロードURL`)
      .fill("https://videos.example.jp/junior-2.mp4");
    await admin
      .getByRole("listitem")
      .filter({ hasText: `注文番号 ${orderNumber}` })
      .getByRole("button", { name: "納品" })
      .click();
    await expect(admin.getByText("納品処理完了")).toBeVisible();
    await expect(admin.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` })).toHaveCount(0);
    await admin.goto(`/admin/orders?tab=handled&q=${encodeURIComponent(email)}`);
    await expect(admin.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` })).toContainText(
      "納品完了",
    );

    // The customer's mail: the order confirmation first, then the delivery.
    const delivery = await waitForMail(email, 3);
    expect(delivery.subject).toContain("動画のご用意ができました");
    const link = /https?:\/\/\S+\/download\/([A-Za-z0-9_-]{22})/.exec(delivery.text);
    expect(link).not.toBeNull();
    const pageId = link?.[1] ?? "";

    await page.goto(`/download/${pageId}`);
    await expect(page.getByText(orderNumber)).toBeVisible();
    const items = page
      .getByRole("listitem")
      .filter({ hasText: "納品テスト" })
      .or(page.getByRole("listitem").filter({ hasText: "キッズ部門" }));
    const kids = items.first();
    await expect(kids.getByRole("link", { name: "縦型ダウンロード" })).toBeVisible();
    await expect(kids.getByRole("button", { name: "横型ダウンロード" })).toBeDisabled();
    const href = (await kids.getByRole("link", { name: "縦型ダウンロード" }).getAttribute("href")) ?? "";
    const first302 = await page.request.get(href, { maxRedirects: 0 });
    expect(first302.status()).toBe(302);
    expect(first302.headers()["location"]).toBe("https://videos.example.jp/kids-1.mp4");

    // A guessed id shows the not-found screen.
    await page.goto("/download/AAAAAAAAAAAAAAAAAAAAAA");
    await expect(page.getByRole("heading", { name: "ダウンロードページが見つかりません" })).toBeVisible();

    // After the expiry (moved into the past on the server's records): red notice, buttons disabled, downloads refused.
    const db = new Database(e2eDbFile());
    db.prepare("update download_pages set expires_at = ? where id = ?").run(Date.now() - 1000, pageId);
    db.close();
    await page.goto(`/download/${pageId}`);
    await expect(
      page.getByText("ダウンロードの有効期限が切れています。再度必要な場合はお問い合わせください。"),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: /ダウンロード$/ })).toHaveCount(0);
    // The video started before the expiry is not promised a resume any more.
    await expect(page.getByText(/再ダウンロード（再開）できます/)).toHaveCount(0);
    expect((await page.request.get(href, { maxRedirects: 0 })).status()).toBe(410);
    await adminContext.close();
  },
);

test("a video file attached to the shop is checked by its bytes, delivered, and downloads with Range so a phone can resume", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("file-delivery");
  // A paid order as the checkout stores it (the storefront's purchase is the test above's).
  const orderNumber = insertOrder(email, [
    { category: "キッズ部門", athleteNumber: 1, style: "縦", price: 3000 },
    { category: "ジュニア部門", athleteNumber: 2, style: "横", price: 4500 },
  ]);
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("file-admin"));
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  const group = () => admin.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` });

  // A text file calling itself a video is refused.
  await group()
    .getByLabel(`${orderNumber}-1 の動画ファイル`)
    .setInputFiles({ name: "clip.mp4", mimeType: "video/mp4", buffer: Buffer.from("not really a video") });
  await group().getByLabel(`${orderNumber}-2 のダウンロードURL`).fill("https://videos.example.jp/junior.mp4");
  await group().getByRole("button", { name: "納品" }).click();
  await expect(admin.getByText("動画ファイル（MP4・MOV・WebM）を選択してください")).toBeVisible();

  const video = videoBytes(undefined, "kids");
  await group()
    .getByLabel(`${orderNumber}-1 の動画ファイル`)
    .setInputFiles({ name: "kids.mp4", mimeType: "video/mp4", buffer: video });
  await group().getByLabel(`${orderNumber}-2 のダウンロードURL`).fill("https://videos.example.jp/junior.mp4");
  await group().getByRole("button", { name: "納品" }).click();
  await expect(admin.getByText("納品処理完了")).toBeVisible();

  const pageId = /\/download\/([A-Za-z0-9_-]{22})/.exec((await waitForMail(email)).text)?.[1] ?? "";
  await page.goto(`/download/${pageId}`);
  const href =
    (await page
      .getByRole("link", { name: /^オリジナル（/ })
      .first()
      .getAttribute("href")) ?? "";
  const start = await page.request.get(href, { headers: { Range: "bytes=0-99" } });
  expect(start.status()).toBe(206);
  expect(start.headers()["content-range"]).toBe(`bytes 0-99/${video.length}`);
  expect(Buffer.compare(await start.body(), video.subarray(0, 100))).toBe(0);
  // The connection dropped: the phone resumes from byte 100 without it counting again.
  const resume = await page.request.get(href, { headers: { Range: "bytes=100-" } });
  expect(resume.status()).toBe(206);
  expect(Buffer.compare(await resume.body(), video.subarray(100))).toBe(0);
  const beyond = await page.request.get(href, { headers: { Range: `bytes=${video.length + 10}-` } });
  expect(beyond.status()).toBe(416);
  await adminContext.close();
});
