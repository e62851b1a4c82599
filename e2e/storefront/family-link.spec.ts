import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { withDb } from "../support/db";
import { jsEnabled, uniqueEmail } from "../support/helpers";
import { e2eWorkDir } from "../support/work-dir";

/**
 * The family link: the parent makes it on the download page, the family watches the phone version
 * in a browser of its own (nothing to save, no download counted), the parent revokes it and the
 * link is refused. The delivered order, its phone version and poster are written as 納品 and the
 * media jobs write them.
 */
function deliveredOrderWithPhoneVersion() {
  const media = path.join(e2eWorkDir(), "media");
  const suffix = crypto.randomBytes(6).toString("hex");
  const phone = `phone-family-${suffix}.mp4`;
  const poster = `poster-family-${suffix}.jpg`;
  const sample = path.resolve(import.meta.dirname, "../fixtures/sample-recital.mp4");
  fs.copyFileSync(sample, path.join(media, phone));
  execFileSync("ffmpeg", ["-v", "error", "-i", sample, "-frames:v", "1", "-y", path.join(media, poster)]);
  const pageId = crypto.randomBytes(16).toString("base64url");
  const orderNumber = String(80_000_000 + crypto.randomInt(9_999_999));
  const lineId = withDb((db) => {
    const { id: orderId } = db
      .prepare(
        `insert into orders (order_number, checkout_id, payment_intent_id, contest_name, customer_email,
           customer_name, total_amount, line_count, status, status_token, paid_at)
         values (?, ?, ?, '家族リンク発表会', ?, '家族 花子', 3000, 1, '納品済み', ?, ?) returning id`,
      )
      .get(
        orderNumber,
        `family-${suffix}`,
        `pi_family_${suffix}`,
        uniqueEmail("family"),
        crypto.randomBytes(16).toString("hex"),
        Date.now(),
      ) as { id: number };
    const probe = JSON.stringify({ width: 480, height: 270, durationMs: 3000 });
    const { id: fileId } = db
      .prepare(
        `insert into delivery_files (stored_name, original_name, content_type, size, uploaded_at, video,
           poster_stored_name, phone_stored_name, phone_size, phone_video)
         values (?, '1_横.mp4', 'video/mp4', ?, ?, ?, ?, ?, ?, ?) returning id`,
      )
      .get(
        phone,
        fs.statSync(sample).size,
        Date.now(),
        probe,
        poster,
        phone,
        fs.statSync(sample).size,
        probe,
      ) as {
      id: number;
    };
    const { id } = db
      .prepare(
        `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
           style, orientation, price, status, delivery_file_id)
         values (?, ?, '家族リンク発表会', 'キッズ部門', 5, '家族 さくら', '横', 'horizontal', 3000, '対応済み', ?)
         returning id`,
      )
      .get(orderId, `${orderNumber}-1`, fileId) as { id: number };
    db.prepare("insert into download_pages (id, order_id, expires_at) values (?, ?, ?)").run(
      pageId,
      orderId,
      Date.now() + 30 * 86_400_000,
    );
    return id;
  });
  return { pageId, lineId };
}

const downloadStartedAt = (lineId: number) =>
  withDb(
    (db) =>
      (
        db.prepare("select download_started_at as at from order_lines where id = ?").get(lineId) as {
          at: number | null;
        }
      ).at,
  );

test("a family link plays the phone version with nothing to save, counts its views, and is refused once revoked", async ({
  page,
  browser,
  context,
}) => {
  const { pageId, lineId } = deliveredOrderWithPhoneVersion();
  await page.goto(`/download/${pageId}`);
  const panel = page.getByRole("region", { name: "ご家族に動画を見てもらう" });
  await panel.getByRole("button", { name: "家族に共有するリンクを作る" }).click();
  await expect(page.getByText("家族に共有するリンクを作りました")).toBeVisible();
  const field = panel.getByLabel("ご家族に送るリンク");
  const url = await field.inputValue();
  expect(url).toMatch(/\/family\/[A-Za-z0-9_-]{22}$/);
  await expect(panel.getByText("これまでに 0 回開かれました")).toBeVisible();
  const line = await panel.getByRole("link", { name: "LINEで送る" }).getAttribute("href");
  expect(line).toMatch(/^https:\/\/line\.me\/R\/share\?text=[^\s]+$/);
  expect(decodeURIComponent(line!.slice(line!.indexOf("text=") + 5))).toContain(url);
  expect(await panel.getByRole("link", { name: "メールで送る" }).getAttribute("href")).toMatch(
    /^mailto:\?subject=/,
  );
  if (jsEnabled()) {
    // No share sheet in a desktop browser: コピー puts the link on the clipboard.
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await panel.getByRole("button", { name: /^(コピー|共有)$/ }).click();
    await expect(panel.getByRole("status")).toHaveText("リンクをコピーしました");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await axeViolations(page)).toEqual([]);
  } else {
    // Without JavaScript the link is there to select and copy by hand.
    await expect(panel.getByRole("button", { name: /コピー|共有/ })).toHaveCount(0);
  }

  // The family, in a browser of its own.
  const family = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  const watching = await family.newPage();
  const opened = await watching.goto(url);
  expect(opened?.status()).toBe(200);
  expect(opened?.headers()["cache-control"]).toBe("private, no-store");
  await expect(watching.getByRole("heading", { level: 1, name: "大会の動画" })).toBeVisible();
  await expect(watching.getByText("保存・ダウンロードはできません")).toBeVisible();
  const video = watching.locator("video");
  await expect(video).toHaveAttribute("controlslist", "nodownload");
  await expect(video).toHaveAttribute("poster", new RegExp(`/family/[^/]+/${lineId}\\?v=poster$`));
  await expect(watching.locator("a[download], a[href*='/download/']")).toHaveCount(0);
  await expect(watching.getByRole("link", { name: /ダウンロード|保存/ })).toHaveCount(0);
  const src = (await video.getAttribute("src")) ?? "";
  const ranged = await watching.request.get(src, { headers: { Range: "bytes=0-99" } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()["content-disposition"]).toBe("inline");
  if (jsEnabled()) {
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect
      .poll(() =>
        video.evaluate((element: HTMLVideoElement) => element.readyState >= 2 || element.currentTime > 0),
      )
      .toBe(true);
    expect(await axeViolations(watching)).toEqual([]);
  }
  // Watching is not downloading.
  expect(downloadStartedAt(lineId)).toBeNull();

  await page.reload();
  await expect(panel.getByText("これまでに 1 回開かれました")).toBeVisible();
  await panel.getByRole("button", { name: "リンクを無効にする" }).click();
  await expect(page.getByText("リンクを無効にしました")).toBeVisible();
  await expect(panel.getByRole("button", { name: "家族に共有するリンクを作る" })).toBeVisible();

  const refused = await watching.goto(url);
  expect(refused?.status()).toBe(410);
  await expect(watching.getByRole("heading", { name: "このリンクは終了しました" })).toBeVisible();
  await expect(watching.locator("video")).toHaveCount(0);
  await family.close();
  expect(downloadStartedAt(lineId)).toBeNull();
});
