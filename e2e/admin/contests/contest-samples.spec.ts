import path from "node:path";
import { e2eDbFile } from "../../support/work-dir";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import sharp from "sharp";
import { slugKey } from "../../../app/lib/rules/slug";
import { e2eDb } from "../../support/db";
import { jsEnabled, uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures", "sample-recital.mp4");

/** A contest on sale of this test's own (no athletes needed to show its samples). */
function contestOnSale(label: string): { id: number; slug: string } {
  const name = `サンプル大会 ${label} ${test.info().project.name} ${Date.now()}`;
  const db = new Database(e2eDbFile());
  try {
    const { id } = db
      .prepare("insert into contests (name, slug_key, video_published) values (?, ?, 1) returning id")
      .get(name, slugKey(name)) as { id: number };
    return { id, slug: slugKey(name) };
  } finally {
    db.close();
  }
}

function storedNames(contestId: number): { stored: string; thumb: string | null }[] {
  const db = e2eDb();
  try {
    return db
      .prepare(
        "select stored_name as stored, thumbnail_stored_name as thumb from media_items where contest_id = ?",
      )
      .all(contestId) as { stored: string; thumb: string | null }[];
  } finally {
    db.close();
  }
}

async function openOrderForm(page: Page, slug: string) {
  await page.goto(`/order-form/${encodeURIComponent(slug)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("サンプル大会");
}

test("a contest's sample video shows on its order form, poster first, nothing of the video fetched before the tap; not on another contest's form", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  const contest = contestOnSale("sample");
  const other = contestOnSale("other");

  // The admin uploads a video as サンプル（ショップに表示） and gives it a thumbnail.
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("samples-admin"));
  await page.goto(`/admin/contest/${contest.id}/content`);
  await page.getByLabel("アップロードするファイル").setInputFiles(FIXTURE);
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  const item = page
    .getByRole("region", { name: "コンテンツ一覧" })
    .getByRole("listitem")
    .filter({ hasText: "sample-recital.mp4" });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item.getByText("動画（サンプル）")).toBeVisible();
  await item.getByText("サムネイルを追加").click();
  await item.getByLabel(/サムネイル画像/).setInputFiles({
    name: "poster.png",
    mimeType: "image/png",
    buffer: await sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#1d4ed8" } })
      .png()
      .toBuffer(),
  });
  await item.getByRole("button", { name: "サムネイルを設定" }).click();
  await expect(item).toContainText("サムネイル:あり");
  const [media] = storedNames(contest.id);
  expect(media?.thumb).toBeTruthy();

  // A parent on a phone, logged out.
  const parentContext = await browser.newContext({
    javaScriptEnabled: jsEnabled(),
    viewport: { width: 390, height: 844 },
    locale: "ja-JP",
  });
  const parent = await parentContext.newPage();
  const videoRequests: string[] = [];
  parent.on("request", (request) => {
    if (request.url().includes(media?.stored ?? "never")) videoRequests.push(request.url());
  });
  await openOrderForm(parent, contest.slug);
  const samples = parent.getByRole("region", { name: "サンプル" });
  await expect(samples).toBeVisible();
  const play = samples.getByRole("link", { name: "サンプル動画1を再生" });
  await expect(play).toHaveAttribute("href", `/media/${media?.stored}`);
  const poster = play.locator("img");
  await expect(poster).toHaveAttribute("loading", "lazy");
  await expect(poster).toHaveAttribute("width", "1080");
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1080);
  await parent.waitForLoadState("networkidle");
  expect(videoRequests).toEqual([]);
  await expect(parent.locator("video")).toHaveCount(0);

  if (jsEnabled()) {
    // The tap opens the shop's player: on a phone it waits for a second tap (タップして再生), still loading nothing.
    await play.click();
    const player = parent.getByRole("dialog", { name: /サンプル動画1/ });
    await expect(player).toBeVisible();
    await expect(player.locator("video")).toHaveAttribute("preload", "none");
    await expect(player.locator("video")).toHaveAttribute("poster", /thumbnail/);
    await parent.waitForTimeout(500);
    expect(videoRequests).toEqual([]);
    const started = parent.waitForRequest((request) => request.url().includes(media?.stored ?? "never"));
    await player.getByRole("button", { name: "タップして再生" }).click();
    await started;
    await player.getByRole("button", { name: "閉じる" }).click();
    await expect(player).toBeHidden();
  } else {
    // Without JavaScript the link is the file itself, served with Range for the phone's own player.
    const partial = await parent.request.get(`/media/${media?.stored}`, { headers: { Range: "bytes=0-99" } });
    expect(partial.status()).toBe(206);
  }

  // Another contest's order form shows none of it.
  await openOrderForm(parent, other.slug);
  await expect(parent.getByRole("region", { name: "サンプル" })).toHaveCount(0);
  await expect(parent.getByRole("link", { name: /サンプル動画/ })).toHaveCount(0);
  await parentContext.close();
});
