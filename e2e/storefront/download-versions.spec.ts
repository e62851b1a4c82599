import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { landscapeVideo, sha256File } from "../../tests/helpers/test-videos";
import { createContest } from "../support/contests";
import { holdDeliveryJobs, withDb } from "../support/db";
import { buyTwoVideos } from "../support/flows";
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
 * A contest of the test's own on sale (キッズ部門 1 and ジュニア部門 2, as flows.ts buys them),
 * made with 新規大会追加 and filled in as the admin's other tabs would. Its phone jobs are held
 * (the queue is busy) until `release`, so the page is seen before the phone version exists.
 */
async function contestOnSale(admin: Page) {
  const name = `スマホ用テスト大会 ${crypto.randomBytes(4).toString("hex")}`;
  const contestId = Number(/\/admin\/contest\/(\d+)/.exec(await createContest(admin, name))?.[1]);
  withDb((db) => {
    db.prepare(
      "update contests set video_published = 1, site_public_status = '公開', bib_number_label = 'エントリー番号' where id = ?",
    ).run(contestId);
    const category = db.prepare("insert into categories (contest_id, name, color) values (?, ?, '#3b82f6')");
    const athlete = db.prepare(
      `insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price, horizontal_video_price)
       values (?, ?, ?, ?, '販売中', 3000, 4500)`,
    );
    for (const [number, athleteName, categoryName] of [
      [1, "山田 ひなた", "キッズ部門"],
      [2, "鈴木 はると", "ジュニア部門"],
    ] as const) {
      category.run(contestId, categoryName);
      athlete.run(contestId, number, athleteName, categoryName);
    }
  });
  const release = holdDeliveryJobs(contestId, ["phone"]);
  return { name, contestId, release };
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
  const { name, contestId, release } = await contestOnSale(admin);
  try {
    const email = uniqueEmail("versions");
    const orderNumber = await buyTwoVideos(page, email, "動画 花子", name);

    // 納品ファイル: the editor's 1080p export for both videos, then 一括納品.
    await admin.goto(`/admin/contest/${contestId}/delivery`);
    const buffer = fs.readFileSync(original);
    await uploadDeliveryFiles(admin, [
      { name: "1_縦.mp4", buffer },
      { name: "2_横.mp4", buffer },
    ]);
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
