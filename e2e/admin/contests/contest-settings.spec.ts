import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { contestSlug } from "../../../app/lib/rules/slug";
import { jsEnabled, routerSettled, uniqueEmail } from "../../support/helpers";
import { createContest } from "../../support/contests";
import { withDb } from "../../support/db";
import { loginAsAdmin } from "../../support/users";
import { pdfPagesAndQrCodes } from "../../../tests/helpers/pdf-qr";

/** A multipart post of one file with the page's cookies, by Node's HTTP client. */
async function postFile(page: Page, pathname: string, field: string, name: string, bytes: Buffer) {
  const url = new URL(pathname, page.url());
  const cookie = (await page.context().cookies(url.origin)).map((c) => `${c.name}=${c.value}`).join("; ");
  const boundary = `----e2e${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        Cookie: cookie,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": body.length,
      },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

const section = (page: Page, title: string) => page.getByRole("region", { name: title });

async function expectSaved(page: Page) {
  // Settled first: the toast looked for may otherwise be the last save's, still on the screen,
  // and the next click would abort this save's reload (CI saw the next toast lost that way).
  await routerSettled(page);
  await expect(page.getByText("保存しました", { exact: true })).toBeVisible();
}

test("contest settings: name, number label, categories, formats, price description and publication; the storefront follows", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("settings-admin"));
  const stamp = `${test.info().project.name} ${Date.now()}`;
  const editPage = await createContest(page, `設定前の大会 ${stamp}`);
  await page.getByRole("link", { name: "大会設定" }).click();
  await expect(page).toHaveURL(new RegExp(`${editPage}/settings$`));

  // 基本情報: a blank name is refused beside its field, and the other typed value stays.
  const basic = section(page, "基本情報");
  const name = `設定E2E大会 ${stamp}`;
  await basic.getByLabel("大会名").fill("   ");
  await basic.getByLabel("番号欄の名前").fill("出演番号");
  await basic.getByRole("button", { name: "基本情報を保存" }).click();
  await expect(basic.getByText("大会名を入力してください")).toBeVisible();
  await expect(basic.getByLabel("番号欄の名前")).toHaveValue("出演番号");
  await basic.getByLabel("大会名").fill(name);
  await basic.getByLabel("番号欄の名前").fill(" ");
  await basic.getByRole("button", { name: "基本情報を保存" }).click();
  await expect(basic.getByText("番号欄の名前を入力してください")).toBeVisible();
  await expect(basic.getByLabel("大会名")).toHaveValue(name);
  await basic.getByLabel("番号欄の名前").fill("出演番号");
  await basic.getByRole("button", { name: "基本情報を保存" }).click();
  await expectSaved(page);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // 部門: blank refused; add two, delete one.
  const categories = section(page, "部門");
  await categories.getByRole("button", { name: "部門を追加" }).click();
  await expect(categories.getByText("部門名を入力してください")).toBeVisible();
  await categories.getByLabel("新しい部門名").fill("小学生の部");
  await categories.getByRole("button", { name: "部門を追加" }).click();
  await expectSaved(page);
  await expect(categories.getByRole("listitem").filter({ hasText: "小学生の部" })).toBeVisible();
  await categories.getByLabel("新しい部門名").fill("中学生の部");
  await categories.getByRole("button", { name: "部門を追加" }).click();
  await expect(categories.getByRole("listitem").filter({ hasText: "中学生の部" })).toBeVisible();
  await expect(categories.getByLabel("新しい部門名")).toHaveValue("");
  await categories.getByRole("button", { name: "部門「中学生の部」を削除" }).click();
  await expect(page.getByText("部門「中学生の部」を削除しました。")).toBeVisible();
  await expect(categories.getByRole("list", { name: "部門の一覧" }).getByRole("listitem")).toHaveText([
    /小学生の部/,
  ]);

  // 動画形式: rename the first, blank refused, then move 横 to the top.
  const formats = section(page, "動画形式");
  await expect(formats.getByText("1番目の形式は選手の「縦」の価格、2番目の形式は「横」の価格")).toBeVisible();
  await formats.getByLabel("1番目の動画形式名").fill(" ");
  await formats.getByRole("button", { name: "名前を保存（1番目の動画形式）" }).click();
  await expect(formats.getByText("動画形式名を入力してください")).toBeVisible();
  await formats.getByLabel("1番目の動画形式名").fill("スマホ縦");
  await formats.getByRole("button", { name: "名前を保存（1番目の動画形式）" }).click();
  await expectSaved(page);
  await expect(formats.getByLabel("1番目の動画形式名")).toHaveValue("スマホ縦");
  await formats.getByRole("button", { name: "「横」を上へ移動" }).click();
  await expect(page.getByText("動画形式の順番を変更しました。")).toBeVisible();
  await expect(formats.getByLabel("1番目の動画形式名")).toHaveValue("横");
  await expect(formats.getByLabel("2番目の動画形式名")).toHaveValue("スマホ縦");

  // 料金説明: half a row is refused with the typed values kept.
  const price = section(page, "料金説明");
  await price.getByLabel("項目名3").fill("2本セット");
  await price.getByRole("button", { name: "料金説明を保存" }).click();
  await expect(price.getByText("料金を入力してください")).toBeVisible();
  await expect(price.getByLabel("項目名3")).toHaveValue("2本セット");
  await price.getByLabel("料金1").fill("3800");
  await price.getByLabel("料金3").fill("7,000円〜");
  await price.getByLabel("備考").fill("価格はすべて税込です。");
  await price.getByRole("button", { name: "料金説明を保存" }).click();
  await expectSaved(page);
  await expect(price.getByLabel("料金1")).toHaveValue("3800");
  await expect(price.getByLabel("項目名3")).toHaveValue("2本セット");

  // 公開設定: 公開予約 without a time is refused; 公開 puts it on the storefront.
  const publication = section(page, "公開設定");
  await publication.getByRole("radio", { name: "公開予約", exact: true }).check();
  await publication.getByLabel("公開予約の日時（日本時間）").fill("");
  await publication.getByRole("button", { name: "公開設定を保存" }).click();
  await expect(publication.getByText("公開予約の日時を入力してください")).toBeVisible();
  await expect(publication.getByRole("radio", { name: "公開予約", exact: true })).toBeChecked();
  await publication.getByLabel("公開予約の日時（日本時間）").fill("2020-01-01T10:00");
  await publication.getByRole("button", { name: "公開設定を保存" }).click();
  await expect(publication.getByText("公開予約の日時には未来の日時を指定してください")).toBeVisible();
  await expect(publication.getByLabel("公開予約の日時（日本時間）")).toHaveValue("2020-01-01T10:00");
  await publication.getByRole("radio", { name: "公開", exact: true }).check();
  await publication.getByRole("button", { name: "公開設定を保存" }).click();
  await expect(page.getByText("公開設定を「公開」にしました。")).toBeVisible();

  // The order form offers only categories with something on sale: one athlete is.
  withDb((db) =>
    db
      .prepare(
        "insert into athletes (contest_id, athlete_number, name, category, video_status) values (?, 1, '出演者1', '小学生の部', '販売中')",
      )
      .run(Number(editPage.split("/").pop())),
  );
  // 会場用チラシ: one A4 sheet whose QR code opens the order form (a plain link: JS on and off alike).
  const flyer = page.waitForEvent("download");
  await section(page, "会場用チラシ").getByRole("link", { name: "チラシ（PDF）をダウンロード" }).click();
  const printed = await pdfPagesAndQrCodes(fs.readFileSync((await (await flyer).path())!));
  expect(printed.pages).toBe(1);
  expect(printed.qrCodes).toEqual([
    expect.stringMatching(new RegExp(`/order-form/${encodeURIComponent(contestSlug(name))}$`)),
  ]);

  await page.goto("/");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toBeVisible();
  await card.getByRole("link", { name: "注文を開始する" }).click();
  await expect(page).toHaveURL(`/order-form/${encodeURIComponent(contestSlug(name))}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByLabel("出演番号")).toBeVisible();
  await expect(page.getByLabel("部門")).toContainText("小学生の部");
  await expect(page.getByLabel("部門")).not.toContainText("中学生の部");
  await expect(page.getByRole("radiogroup", { name: "動画スタイル" }).getByRole("radio")).toHaveCount(2);
  await expect(page.getByRole("radiogroup", { name: "動画スタイル" })).toHaveText(/横.*スマホ縦/);
  const priceGuide = page.getByRole("region", { name: "価格のご案内" });
  await expect(priceGuide).toContainText("3,800円");
  await expect(priceGuide).toContainText("2本セット");
  await expect(priceGuide).toContainText("7,000円〜");
  await expect(priceGuide).toContainText("価格はすべて税込です。");

  // 公開予約 for tomorrow (Tokyo time): shown with its start, not yet orderable.
  await page.goto(`${editPage}/settings`);
  const tomorrow = new Date(Date.now() + 24 * 3600_000 + 9 * 3600_000).toISOString().slice(0, 16);
  await section(page, "公開設定").getByRole("radio", { name: "公開予約", exact: true }).check();
  await section(page, "公開設定").getByLabel("公開予約の日時（日本時間）").fill(tomorrow);
  await section(page, "公開設定").getByRole("button", { name: "公開設定を保存" }).click();
  await expect(page.getByText("公開設定を「公開予約」にしました。")).toBeVisible();
  await expect(section(page, "公開設定").getByLabel("公開予約の日時（日本時間）")).toHaveValue(tomorrow);
  await page.goto("/");
  await expect(card.getByText(/販売開始:/)).toBeVisible();
  await expect(card.getByRole("button", { name: "注文を開始する" })).toBeDisabled();
  expect((await page.request.get(`/order-form/${encodeURIComponent(contestSlug(name))}`)).status()).toBe(404);

  // 非公開: gone from the home page, and the order form no longer answers.
  await page.goto(`${editPage}/settings`);
  await section(page, "公開設定").getByRole("radio", { name: "非公開", exact: true }).check();
  await section(page, "公開設定").getByRole("button", { name: "公開設定を保存" }).click();
  await expect(page.getByText("公開設定を「非公開」にしました。")).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("heading", { name })).toHaveCount(0);
  const closed = await page.request.get(`/order-form/${encodeURIComponent(contestSlug(name))}`);
  expect(closed.status()).toBe(404);
});

test("cover image: non-images refused, an upload shows with its size, and the home card shows the newest", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("cover-admin"));
  const name = `カバーE2E大会 ${test.info().project.name} ${Date.now()}`;
  const editPage = await createContest(page, name);
  const dir = test.info().outputPath("covers");
  fs.mkdirSync(dir, { recursive: true });
  const notImage = path.join(dir, "fake.png");
  fs.writeFileSync(notImage, "<html>画像ではありません</html>");
  const small = path.join(dir, "small-cover.png");
  await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .png()
    .toFile(small);
  const full = path.join(dir, "full-cover.png");
  await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 220, g: 40, b: 60 } } })
    .png()
    .toFile(full);

  await page.getByRole("link", { name: "カバー画像" }).click();
  await expect(page).toHaveURL(new RegExp(`${editPage}/cover$`));
  await expect(page.getByText("カバー画像はまだありません")).toBeVisible();

  await page.getByRole("button", { name: "アップロード" }).click();
  await expect(page.getByText("画像ファイルを選択してください")).toBeVisible();
  await page.getByLabel("画像ファイル").setInputFiles(notImage);
  await page.getByRole("button", { name: "アップロード" }).click();
  await expect(page.getByText("JPEG・PNG・WebP形式の画像ファイルを選択してください")).toBeVisible();

  // Over the limit: a 413 with its message, answered from Content-Length before the body is read
  // (unread), and still received by the client rather than a reset connection (the
  // rest is thrown away behind the answer: e2e/server/kept-alive-connections.spec.ts).
  const big = Buffer.alloc(21 * 1024 * 1024);
  big.set([0xff, 0xd8, 0xff, 0xe0]);
  const tooBig = await postFile(page, `${editPage}/cover`, "cover", "huge.jpg", big);
  expect(tooBig.status).toBe(413);
  expect(tooBig.body).toContain("ファイルが大きすぎます（20 MBまで）");

  await page.getByLabel("画像ファイル").setInputFiles(small);
  if (jsEnabled()) await expect(page.getByRole("img", { name: "選択した画像のプレビュー" })).toBeVisible();
  await page.getByRole("button", { name: "アップロード" }).click();
  await expect(page.getByText("カバー画像を更新しました（1280×720ピクセル）。")).toBeVisible();
  await expect(page.getByTestId("cover-size")).toHaveText("1280×720ピクセル");
  await expect(page.getByText("推奨サイズは1920×1080ピクセルです。")).toBeVisible();

  await page.getByLabel("画像ファイル").setInputFiles(full);
  await page.getByRole("button", { name: "アップロード" }).click();
  await expect(page.getByText("カバー画像を更新しました（1920×1080ピクセル）。")).toBeVisible();
  await expect(page.getByTestId("cover-size")).toHaveText("1920×1080ピクセル");
  await expect(page.getByText("推奨サイズは1920×1080ピクセルです。")).toHaveCount(0);
  const adminSrc = await page.getByRole("img", { name: "現在のカバー画像" }).getAttribute("src");

  await page.getByRole("link", { name: "大会設定" }).click();
  await section(page, "公開設定").getByRole("radio", { name: "公開", exact: true }).check();
  await section(page, "公開設定").getByRole("button", { name: "公開設定を保存" }).click();
  await expect(page.getByText("公開設定を「公開」にしました。")).toBeVisible();

  await page.goto("/");
  const cover = page.getByRole("img", { name: `${name}のカバー画像` });
  await expect(cover).toBeVisible();
  expect(await cover.getAttribute("src")).toBe(adminSrc);
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

  // Leave the storefront as it was for the other specs.
  await page.goto(`${editPage}/settings`);
  await section(page, "公開設定").getByRole("radio", { name: "非公開", exact: true }).check();
  await section(page, "公開設定").getByRole("button", { name: "公開設定を保存" }).click();
  await expect(page.getByText("公開設定を「非公開」にしました。")).toBeVisible();
});
