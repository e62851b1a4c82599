import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { slugKey } from "../../../app/lib/rules/slug";
import { formatBytes } from "../../../app/lib/rules/format";
import { landscapeVideo, mp4HeaderThenHtml } from "../../../tests/helpers/test-videos";
import { e2eDb, HELD_UNTIL, holdDeliveryJobs, withDb } from "../../support/db";
import { jsEnabled, routerSettled, uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";

/**
 * Video processing as the admin sees it: a real 1080p video uploaded on 納品ファイル shows 待機中, 処理中
 * n%, 失敗 with its reason and 再実行, then 完了 with its phone version's size and its poster; a
 * sample uploaded on コンテンツ管理 without a thumbnail gets its poster, shown on the tab and on
 * the storefront's order form (no black box) and in the player. With JavaScript the tab follows
 * the state by itself; without, its 再読み込み link shows the latest.
 */

/** A contest of the test's own, on sale (its order form shows its samples). */
function contestOnSale(label: string): { id: number; slug: string } {
  const name = `処理状況 ${label} ${crypto.randomBytes(4).toString("hex")}`;
  return withDb((db) => {
    const { id } = db
      .prepare(
        "insert into contests (name, slug_key, video_published, site_public_status) values (?, ?, 1, '公開') returning id",
      )
      .get(name, slugKey(name)) as { id: number };
    return { id, slug: slugKey(name) };
  });
}

function setPhoneJob(fileName: string, contestId: number, set: string, ...values: unknown[]) {
  withDb((db) =>
    db
      .prepare(
        `update media_jobs set ${set} where kind = 'phone' and subject = 'delivery' and subject_id =
           (select id from delivery_files where contest_id = ? and original_name = ?)`,
      )
      .run(...values, contestId, fileName),
  );
}

/** With JavaScript the page follows by itself; without, the admin follows its 再読み込み link. */
async function waitForState(page: Page, state: Locator, text: string | RegExp, timeout = 20_000) {
  if (jsEnabled()) {
    await expect(state).toHaveText(text, { timeout });
    return;
  }
  await expect(async () => {
    const hint = page.getByRole("link", { name: "再読み込み" });
    if (await hint.count()) await hint.click();
    else await page.reload();
    await expect(state).toHaveText(text, { timeout: 1_000 });
  }).toPass({ timeout, intervals: [1_000, 2_000] });
}

async function screenshots(page: Page, name: string) {
  const dir = "/work/main/.tmp/visual";
  fs.mkdirSync(dir, { recursive: true });
  const project = test.info().project.name;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(dir, `${name}-390-${project}.png`), fullPage: true });
  // Nothing of the tab may overflow a phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(dir, `${name}-desktop-${project}.png`), fullPage: true });
}

async function expectJpeg(page: Page, url: string, cacheControl: RegExp) {
  const response = await page.request.get(url);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/jpeg");
  expect(response.headers()["cache-control"]).toMatch(cacheControl);
  expect((await response.body()).subarray(0, 2).toString("hex")).toBe("ffd8");
}

test("納品ファイル: a real video's state from 待機中 through 処理中 and 失敗 (再実行) to 完了 with its phone version and poster", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const contest = contestOnSale("納品");
  const release = holdDeliveryJobs(contest.id);
  const fileName = "7_横.mp4";
  try {
    await loginAsAdmin(context, baseURL ?? "", uniqueEmail("processing-admin"));
    await page.goto(`/admin/contest/${contest.id}/delivery`);
    await page.getByLabel("納品する動画ファイル（複数選択できます）").setInputFiles({
      name: fileName,
      mimeType: "video/mp4",
      buffer: fs.readFileSync(await landscapeVideo()),
    });
    await page.getByRole("button", { name: "アップロード", exact: true }).click();
    const row = page.locator(`[data-file="${fileName}"]`);
    const state = row.locator("[data-job-badge]");
    await expect(row).toBeVisible({ timeout: 60_000 });

    // Queued: the probe's facts and 待機中, and the page says how it follows.
    await expect(row.getByText("1080p・0:03・横")).toBeVisible();
    await expect(state).toHaveText("待機中");
    await expect(
      page.getByText(
        jsEnabled()
          ? "処理中のファイルがあります。状態は自動で更新されます。"
          : "処理中のファイルがあります。再読み込みすると最新の状態を表示します。",
      ),
    ).toBeVisible();

    // A worker elsewhere is 37% through the phone version (the poster, a second's work, still waits).
    setPhoneJob(
      fileName,
      contest.id,
      "status = 'running', progress = 37, attempts = 1, claimed_by = 'elsewhere:1:e2e', claimed_until = ?",
      HELD_UNTIL,
    );
    await waitForState(page, state, "処理中 33%・スマホ用動画の作成（2/2）");

    // Its last try failed: 失敗 with ffmpeg's reason and 再実行.
    setPhoneJob(
      fileName,
      contest.id,
      "status = 'failed', progress = 0, attempts = 4, claimed_by = null, claimed_until = null, detail = ?",
      "ffmpeg が終了コード 1 で止まりました（e2e）",
    );
    await waitForState(page, state, "失敗");
    await expect(row.getByText("スマホ用: ffmpeg が終了コード 1 で止まりました（e2e）")).toBeVisible();
    await screenshots(page, "delivery-failed");

    // 再実行: the jobs run for real now, to 完了 with the phone version's size and the poster.
    release();
    await routerSettled(page);
    await row.getByRole("button", { name: `${fileName} の処理を再実行` }).click();
    await expect(page.getByText("再実行します")).toBeVisible();
    await waitForState(page, state, /^完了（スマホ用 720p・[\d.]+ [KM]B）$/, 90_000);
    const phoneSize = (() => {
      const db = e2eDb();
      try {
        return (
          db
            .prepare(
              "select phone_size as size from delivery_files where contest_id = ? and original_name = ?",
            )
            .get(contest.id, fileName) as { size: number }
        ).size;
      } finally {
        db.close();
      }
    })();
    await expect(state).toHaveText(`完了（スマホ用 720p・${formatBytes(phoneSize)}）`);
    await expect(row.getByRole("button", { name: /再実行/ })).toHaveCount(0);
    await expect(page.getByText("処理中のファイルがあります", { exact: false })).toHaveCount(0);

    // The poster beside the row, for the admin only and kept by no shared cache.
    const poster = row.getByRole("img", { name: `${fileName} のポスター画像` });
    await expect(poster).toBeVisible();
    const posterUrl = (await poster.getAttribute("src")) ?? "";
    expect(posterUrl).toMatch(new RegExp(`^/admin/contest/${contest.id}/poster/poster-[a-f0-9]+\\.jpg$`));
    await expectJpeg(page, posterUrl, /^private/);
    const visitor = await page.context().browser()!.newContext();
    const refused = await visitor.request.get(`${baseURL}${posterUrl}`, { maxRedirects: 0 });
    expect(refused.status()).toBe(302);
    expect(refused.headers()["location"]).toMatch(/^\/admin-login/);
    await visitor.close();
    await screenshots(page, "delivery-done");
  } finally {
    release();
  }
});

test("コンテンツ管理: a sample without a thumbnail gets its poster, on the tab, on the order form and in the player", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const contest = contestOnSale("サンプル");
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("poster-admin"));
  await page.goto(`/admin/contest/${contest.id}/content`);
  await page.getByLabel("アップロードするファイル").setInputFiles(await landscapeVideo());
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  const item = page
    .getByRole("region", { name: "コンテンツ一覧" })
    .getByRole("listitem")
    .filter({ hasText: "landscape" });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText("1080p・0:03・横")).toBeVisible();
  await waitForState(page, item.locator("[data-job-badge]"), "完了（ポスター画像）", 60_000);

  // The poster is the tile's picture (no thumbnail was attached), served to the admin.
  const preview = item.getByRole("img", { name: /のプレビュー$/ });
  await expect(preview).toHaveAttribute("src", new RegExp(`^/admin/contest/${contest.id}/poster/poster-`));
  await expectJpeg(page, (await preview.getAttribute("src")) ?? "", /^private/);
  await screenshots(page, "content-poster");

  // A parent on the order form: the tile shows the poster, public as the sample is.
  const parent = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  const parentPage = await parent.newPage();
  await parentPage.goto(`/order-form/${encodeURIComponent(contest.slug)}`);
  const tile = parentPage.getByRole("link", { name: "サンプル動画1を再生" });
  const tileImage = tile.locator("img");
  await expect(tileImage).toHaveAttribute("src", /^\/media\/poster-[a-f0-9]+\.jpg$/);
  const posterUrl = (await tileImage.getAttribute("src")) ?? "";
  await expect
    .poll(() => tileImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
    .toBe(true);
  await expectJpeg(parentPage, posterUrl, /^public/);
  if (jsEnabled()) {
    await tile.click();
    await expect(parentPage.locator("dialog video")).toHaveAttribute("poster", posterUrl);
  }
  await parent.close();

  // Once the contest is no longer on sale, its sample's poster is not served either.
  withDb((db) => db.prepare("update contests set video_published = 0 where id = ?").run(contest.id));
  await expect.poll(async () => (await page.request.get(posterUrl)).status(), { timeout: 5_000 }).toBe(404);
});

test("*MP4 header then HTML*: a 95-byte file with an MP4 header followed by HTML is refused by name, on 納品ファイル and on コンテンツ管理, and nothing is stored", async ({
  page,
  context,
  baseURL,
}) => {
  const contest = contestOnSale("偽装");
  const forged = {
    name: "kids.mp4",
    mimeType: "video/mp4",
    buffer: fs.readFileSync(await mp4HeaderThenHtml()),
  };
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("forged-admin"));

  await page.goto(`/admin/contest/${contest.id}/delivery`);
  await page.getByLabel("納品する動画ファイル（複数選択できます）").setInputFiles(forged);
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  if (jsEnabled()) {
    // Sent in chunks and refused once whole: the row names the file and says why.
    const status = page.getByRole("list", { name: "アップロード状況" }).getByRole("listitem");
    await expect(status).toContainText("失敗");
    await expect(status).toContainText("「kids.mp4」は再生できる動画ではありません");
  } else {
    await expect(page.getByText("1 件のファイルを受け付けられませんでした")).toBeVisible();
    await expect(page.getByText("「kids.mp4」は再生できる動画ではありません")).toBeVisible();
  }

  await page.goto(`/admin/contest/${contest.id}/content`);
  await page.getByLabel("アップロードするファイル").setInputFiles(forged);
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  await expect(page.getByText("「kids.mp4」は再生できる動画ではありません").first()).toBeVisible();

  const stored = withDb((db) => ({
    files: (
      db.prepare("select count(*) as n from delivery_files where contest_id = ?").get(contest.id) as {
        n: number;
      }
    ).n,
    media: (
      db.prepare("select count(*) as n from media_items where contest_id = ?").get(contest.id) as {
        n: number;
      }
    ).n,
  }));
  expect(stored).toEqual({ files: 0, media: 0 });
});
