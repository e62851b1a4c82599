import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { landscapeVideo, sha256File } from "../../tests/helpers/test-videos";
import { holdDeliveryJobs, withDb } from "../support/db";
import { jsEnabled, mailsTo, uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/**
 * A delivered video's two versions as the parent sees them: a real 1080p video uploaded on 納品ファイル and delivered by
 * 一括納品 is offered at once as オリジナル; its phone version, made in the background, appears on
 * the same page (no second mail) with its poster; the player streams it with Range, and both
 * versions download (スマホ用: 720p H.264, smaller; オリジナル: the very bytes uploaded).
 */

const run = promisify(execFile);
const DELIVERY_SUBJECT = "動画のご用意ができました";

/**
 * A contest of the test's own on sale (キッズ部門 1 and ジュニア部門 2) with a paid order for
 * キッズ部門 1 縦, written into the server's database as 新規大会追加, the admin's other tabs and
 * the checkout store them (those screens are their own specs'). Its phone jobs are held (the
 * queue is busy) until `release`, so the page is seen before the phone version exists.
 */
function contestWithPaidOrder(email: string) {
  const tag = crypto.randomBytes(4).toString("hex");
  const name = `スマホ用テスト大会 ${tag}`;
  const { contestId, orderNumber } = withDb((db) => {
    const contestId = (
      db
        .prepare(
          `insert into contests (name, slug_key, bib_number_label, video_published, site_public_status)
           values (?, ?, 'エントリー番号', 1, '公開') returning id`,
        )
        .get(name, `sumahoyou${tag}`) as { id: number }
    ).id;
    const format = db.prepare("insert into video_formats (contest_id, name, display_order) values (?, ?, ?)");
    format.run(contestId, "縦", 0);
    format.run(contestId, "横", 1);
    const category = db.prepare("insert into categories (contest_id, name, color) values (?, ?, '#3b82f6')");
    const athlete = db.prepare(
      `insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price, horizontal_video_price)
       values (?, ?, ?, ?, '販売中', 3000, 4500) returning id`,
    );
    const athleteIds = (
      [
        [1, "山田 ひなた", "キッズ部門"],
        [2, "鈴木 はると", "ジュニア部門"],
      ] as const
    ).map(([number, athleteName, categoryName]) => {
      category.run(contestId, categoryName);
      return (athlete.get(contestId, number, athleteName, categoryName) as { id: number }).id;
    });
    const orderNumber = `7${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
    const orderId = (
      db
        .prepare(
          `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, bib_number_label,
             customer_email, customer_name, total_amount, line_count) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, 'エントリー番号', ?, '動画 花子', 3000, 1) returning id`,
        )
        .get(orderNumber, `c${orderNumber}`, `pi${orderNumber}`, contestId, name, email) as { id: number }
    ).id;
    db.prepare(
      `insert into order_lines (order_id, line_number, contest_name, category, athlete_id, athlete_number, athlete_name,
         style, orientation, price) values (?, ?, ?, 'キッズ部門', ?, 1, '山田 ひなた', '縦', 'vertical', 3000)`,
    ).run(orderId, `${orderNumber}-1`, name, athleteIds[0]);
    return { contestId, orderNumber };
  });
  const release = holdDeliveryJobs(contestId, ["phone"]);
  return { name, contestId, orderNumber, release };
}

async function uploadDeliveryFiles(admin: Page, files: { name: string; buffer: Buffer }[]) {
  await admin
    .getByLabel("納品する動画ファイル（複数選択できます）")
    .setInputFiles(files.map((file) => ({ ...file, mimeType: "video/mp4" })));
  await admin.getByRole("button", { name: "アップロード", exact: true }).click();
  if (jsEnabled())
    await expect(admin.getByText(`全体 ${files.length}/${files.length} 件・100%`)).toBeVisible({
      timeout: 60_000,
    });
  else await expect(admin.getByText("アップロード完了")).toBeVisible({ timeout: 60_000 });
}

async function probe(file: string) {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=codec_name,width,height",
    "-of",
    "json",
    file,
  ]);
  return (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[] })
    .streams[0];
}

async function screenshot(page: Page, name: string) {
  const dir = "/work/main/.tmp/visual";
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-${test.info().project.name}.png`), fullPage: true });
}

test("a delivered video: オリジナル at once, スマホ用 once made (no second mail), the poster, the player with Range, both downloads as promised", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const original = await landscapeVideo();
  const originalSize = fs.statSync(original).size;
  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(adminContext, baseURL ?? "", uniqueEmail("versions-admin"));
  const admin = await adminContext.newPage();
  const email = uniqueEmail("versions");
  const { name, contestId, orderNumber, release } = contestWithPaidOrder(email);
  try {
    // 納品ファイル: the editor's 1080p export, then 一括納品.
    await admin.goto(`/admin/contest/${contestId}/delivery`);
    await uploadDeliveryFiles(admin, [{ name: "1_縦.mp4", buffer: fs.readFileSync(original) }]);
    await admin.getByRole("button", { name: "一括納品（1 件の注文）" }).click();
    await expect(admin.getByText(/1 件の注文を納品しました/)).toBeVisible();
    const deliveryMails = () => mailsTo(email).filter((mail) => mail.subject.includes(DELIVERY_SUBJECT));
    await expect.poll(() => deliveryMails().length, { timeout: 15_000 }).toBe(1);
    const pageId = /\/download\/([A-Za-z0-9_-]{22})/.exec(deliveryMails()[0]!.text)?.[1] ?? "";
    expect(deliveryMails()[0]!.text).toContain(orderNumber);

    // At once: only オリジナル, with its resolution and size, and the line saying スマホ用 is coming.
    await page.goto(`/download/${pageId}`);
    const kids = page.getByRole("listitem").filter({ hasText: "キッズ部門" });
    const originalLabel = /^オリジナル（1080p・[\d.]+ MB）$/;
    await expect(kids.getByRole("link", { name: originalLabel })).toBeVisible();
    await expect(kids.getByRole("link", { name: /スマホ用/ })).toHaveCount(0);
    await expect(kids.getByText(/スマホ用）を準備しています/)).toBeVisible();
    await expect(kids.getByText("再生時間 0:03")).toBeVisible();
    // The player is there already, on the original.
    const video = kids.locator("video");
    await expect(video).toHaveAttribute("src", /\?play=1$/);

    // The phone version is made in the background; the page shows it on a later visit.
    release();
    await expect
      .poll(
        async () => {
          await page.reload();
          // A 3 s phone version is about a megabyte: "1.2 MB" or "870 KB", as its bytes fall.
          return kids.getByRole("link", { name: /^スマホ用（720p・[\d.]+ [KM]B）$/ }).count();
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(1);
    await expect(kids.getByRole("link", { name: originalLabel })).toBeVisible();
    await expect(kids.getByText(/を準備しています/)).toHaveCount(0);

    // The poster, by the page's own link: a JPEG, private.
    await expect(video).toHaveAttribute("preload", "none");
    const posterUrl = (await video.getAttribute("poster")) ?? "";
    expect(posterUrl).toContain(`/download/${pageId}/`);
    const poster = await page.request.get(posterUrl);
    expect(poster.status()).toBe(200);
    expect(poster.headers()["content-type"]).toBe("image/jpeg");
    expect((await poster.body()).subarray(0, 2).toString("hex")).toBe("ffd8");

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "download-versions-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "download-versions-desktop");

    // The player streams the phone version, inline, with Range.
    const src = (await video.getAttribute("src")) ?? "";
    expect(src).toContain("v=phone");
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
    }
    const ranged = await page.request.get(src, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status()).toBe(206);
    expect(ranged.headers()["content-disposition"]).toBeUndefined();
    expect((await ranged.body()).length).toBe(100);

    // スマホ用 downloads: 720p H.264, smaller than the original, under the athlete's name.
    const dir = test.info().outputPath("downloads");
    fs.mkdirSync(dir, { recursive: true });
    const phoneDownload = page.waitForEvent("download");
    await kids.getByRole("link", { name: /^スマホ用/ }).click();
    const phone = await phoneDownload;
    expect(phone.suggestedFilename()).toBe(`${name.replace(/\s+/g, "")}_1_山田ひなた_縦_スマホ用.mp4`);
    const phoneFile = path.join(dir, "phone.mp4");
    await phone.saveAs(phoneFile);
    expect(await probe(phoneFile)).toEqual({ codec_name: "h264", width: 1280, height: 720 });
    expect(fs.statSync(phoneFile).size).toBeLessThan(originalSize);

    // オリジナル within the same window: the bytes uploaded.
    const originalDownload = page.waitForEvent("download");
    await kids.getByRole("link", { name: originalLabel }).click();
    const originalFile = path.join(dir, "original.mp4");
    await (await originalDownload).saveAs(originalFile);
    expect(await sha256File(originalFile)).toBe(await sha256File(original));

    // Still the one delivery mail.
    await page.waitForTimeout(1_000);
    expect(deliveryMails()).toHaveLength(1);
  } finally {
    release();
    await adminContext.close();
  }
});
