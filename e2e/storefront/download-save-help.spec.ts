import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { withDb } from "../support/db";
import { jsEnabled, mailsTo, uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";
import { e2eWorkDir } from "../support/work-dir";

/**
 * The download page's help for saving to a phone (the visitor's phone first, by her browser's
 * User-Agent, drawn by the server), and the safety net of "each video once": a download cut
 * short mid-body is offered once more after its 24 hours (the test clock), shown on the page,
 * mailed to the order's address and marked on the back-office's order page.
 */

const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const HOUR = 3_600_000;
/** Larger than what the sockets between server and test can hold, so a download stopped early is cut. */
const ORIGINAL_BYTES = 24_000_000;
const PHONE_BYTES = 1_800_000;

/** A delivered one-video order whose original and phone version are files of the shop, written as 納品 writes them. */
function deliveredVideo(originalBytes = ORIGINAL_BYTES) {
  const email = uniqueEmail("save-help");
  const names = ["original", "phone"].map(
    (kind) => `e2e-${kind}-${crypto.randomBytes(8).toString("hex")}.mp4`,
  );
  const [original, phone] = names as [string, string];
  const media = path.join(e2eWorkDir(), "media");
  fs.mkdirSync(media, { recursive: true });
  fs.writeFileSync(path.join(media, original), crypto.randomBytes(originalBytes));
  fs.writeFileSync(path.join(media, phone), crypto.randomBytes(PHONE_BYTES));
  const orderNumber = String(60_000_000 + crypto.randomInt(9_999_999));
  const pageId = crypto.randomBytes(16).toString("base64url");
  const lineId = withDb((db) => {
    const at = Date.now();
    const orderId = Number(
      db
        .prepare(
          `insert into orders (order_number, checkout_id, payment_intent_id, contest_name, customer_email,
             customer_name, total_amount, line_count, status, status_token, paid_at, created_at)
           values (?, ?, ?, '夏の発表会', ?, '保存 花子', 3000, 1, '対応済み', ?, ?, ?)`,
        )
        .run(
          orderNumber,
          `save-${orderNumber}`,
          `pi_save_${orderNumber}`,
          email,
          crypto.randomBytes(16).toString("hex"),
          at,
          at,
        ).lastInsertRowid,
    );
    const fileId = Number(
      db
        .prepare(
          `insert into delivery_files (stored_name, original_name, content_type, size, uploaded_at, phone_stored_name, phone_size)
           values (?, '3_縦.mp4', 'video/mp4', ?, ?, ?, ?)`,
        )
        .run(original, originalBytes, at, phone, PHONE_BYTES).lastInsertRowid,
    );
    const line = Number(
      db
        .prepare(
          `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
             style, orientation, price, status, delivery_file_id, created_at)
           values (?, ?, '夏の発表会', 'キッズ部門', 3, '保存 さくら', '縦', 'vertical', 3000, '対応済み', ?, ?)`,
        )
        .run(orderId, `${orderNumber}-1`, fileId, at).lastInsertRowid,
    );
    db.prepare("insert into download_pages (id, order_id, created_at, expires_at) values (?, ?, ?, ?)").run(
      pageId,
      orderId,
      at,
      at + 30 * 24 * HOUR,
    );
    return line;
  });
  return { email, orderNumber, pageId, lineId, files: names.map((name) => path.join(media, name)) };
}

async function phonePage(browser: Browser, userAgent: string, viewport = { width: 390, height: 844 }) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), userAgent, viewport });
  return { context, page: await context.newPage() };
}

async function screenshot(page: Page, name: string) {
  if (!jsEnabled()) return; // the server draws the same page either way
  const dir = path.resolve(import.meta.dirname, "../../.tmp/visual");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

/** Starts a real download and cuts the connection once part of the body has come: the phone lost its signal. */
function cutDownload(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 256 * 1024) {
          response.pause();
          request.destroy();
          resolve(received);
        }
      });
      response.on("end", () => reject(new Error("the whole file came before the cut")));
    });
    request.on("error", () => undefined);
  });
}

test("the download page shows an iPhone visitor her saving steps first, an Android visitor his, and each version's size on its button", async ({
  browser,
}) => {
  const video = deliveredVideo(2_400_000);
  const iphone = await phonePage(browser, IPHONE_UA);
  const android = await phonePage(browser, ANDROID_UA);
  try {
    const { page } = iphone;
    await page.goto(`/download/${video.pageId}`);
    await expect(page.getByRole("link", { name: "スマホ用（1.8 MB）" })).toBeVisible();
    await expect(page.getByRole("link", { name: "オリジナル（2.4 MB）" })).toBeVisible();
    const help = page.locator("#save-help");
    await expect(help.getByRole("heading", { name: "スマホへの保存方法" })).toBeVisible();
    const steps = help.locator("details");
    await expect(steps.first().locator("summary")).toContainText("iPhone（Safari）の場合");
    await expect(steps.first()).toHaveAttribute("open", "");
    await expect(steps.first()).toContainText("「ビデオを保存」をタップ");
    await expect(steps.nth(1).locator("summary")).toContainText("Android（Chrome）の場合");
    await expect(steps.nth(1)).not.toHaveAttribute("open");
    if (jsEnabled()) expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "download-save-help-iphone-390");

    await android.page.goto(`/download/${video.pageId}`);
    const androidSteps = android.page.locator("#save-help details");
    await expect(androidSteps.first().locator("summary")).toContainText("Android（Chrome）の場合");
    await expect(androidSteps.first()).toContainText("ギャラリー");
    await screenshot(android.page, "download-save-help-android-390");
    await android.page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(android.page, "download-save-help-desktop");
  } finally {
    await iphone.context.close();
    await android.context.close();
    for (const file of video.files) fs.rmSync(file, { force: true });
  }
});

test("a download cut short mid-body is offered once more after its 24 hours: on the page, by mail to the order's address, to the admin", async ({
  page,
  browser,
  baseURL,
}) => {
  const video = deliveredVideo();
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  try {
    await page.goto(`/download/${video.pageId}`);
    const original = page.getByRole("link", { name: /^オリジナル/ });
    const href = (await original.getAttribute("href")) ?? "";
    expect(await cutDownload(`${baseURL}${href}`)).toBeGreaterThan(0);
    const lineState = () =>
      withDb(
        (db) =>
          db
            .prepare(
              "select download_started_at, download_cut_at, download_finished_at from order_lines where id = ?",
            )
            .get(video.lineId) as {
            download_started_at: number | null;
            download_cut_at: number | null;
            download_finished_at: number | null;
          },
      );
    await expect.poll(() => lineState().download_cut_at).not.toBeNull();
    expect(lineState().download_finished_at).toBeNull();

    // Within its 24 hours the page offers the resume, not a second chance.
    await page.reload();
    await expect(page.getByText(/までは再ダウンロード（再開）できます/)).toBeVisible();
    await expect(page.getByText("もう1回ダウンロードできるようにしました")).toHaveCount(0);

    // 25 hours later (the test clock): offered once more, at the page's own visit.
    await page
      .context()
      .addCookies([{ name: "shop-test-clock-offset", value: String(25 * HOUR), url: baseURL ?? "" }]);
    await page.reload();
    const line = page.getByRole("listitem").filter({ hasText: "保存 さくら" });
    await expect(line.getByText(/もう1回ダウンロードできるようにしました/)).toBeVisible();
    await expect(line.getByRole("link", { name: /^オリジナル/ })).toBeVisible();
    expect(lineState().download_started_at).toBeNull();

    await expect
      .poll(() => mailsTo(video.email).filter((mail) => mail.subject.includes("もう一度ダウンロード")).length)
      .toBe(1);
    const mail = mailsTo(video.email).find((each) => each.subject.includes("もう一度ダウンロード"))!;
    expect(mail.text).toContain(`/download/${video.pageId}`);
    expect(mail.text).toContain("「ビデオを保存」をタップ");

    // Visited again: nothing more is offered or mailed.
    await page.reload();
    await expect(line.getByText(/もう1回ダウンロードできるようにしました/)).toBeVisible();
    expect(mailsTo(video.email).filter((each) => each.subject.includes("もう一度ダウンロード"))).toHaveLength(
      1,
    );

    await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("save-help-admin"));
    const admin = await adminContext.newPage();
    await admin.goto(`/admin/orders/${video.orderNumber}`);
    await expect(admin.getByTestId("download-retry")).toContainText(
      "再ダウンロードを1回許可（未完了のため）",
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "download-offered-again-390");
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, "admin-order-download-retry-390");
  } finally {
    await adminContext.close();
    for (const file of video.files) fs.rmSync(file, { force: true });
  }
});
