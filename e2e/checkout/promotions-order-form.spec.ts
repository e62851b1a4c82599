import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { contestSlug } from "../../app/lib/rules/slug";
import { TEST_CLOCK_COOKIE } from "../../app/server/core/clock.server";
import { toTokyoDateTimeInput } from "../../app/lib/schemas/contest-settings-schemas";
import { axeViolations } from "../support/axe";
import { jsEnabled, routerSettled, uniqueEmail, waitForMail } from "../support/helpers";
import { createContest } from "../support/contests";
import { withDb } from "../support/db";
import { codeFrom, enterCode, fillItem } from "../support/flows";
import { loginAsAdmin } from "../support/users";

/**
 * キャンペーン価格 from 大会設定 to the order form and the payment: the admin sets an early-bird
 * ending in a few minutes and a set discount; a parent sees the early price struck against the
 * regular one and the set discount; with this test's own clock moved past the end (the cookie
 * the e2e server reads; the specs beside it keep the real time), the order form shows the
 * regular price, and a checkout started before the end reaches /payment at the regular total
 * with the reason said.
 */

const VISUAL_DIR = path.resolve(".tmp/visual");

/** A phone's or a desktop's picture of the page, or of one part of it (JS on only: the same page drawn). */
async function shot(page: Page, name: string, width: number, part?: Locator) {
  if (!jsEnabled()) return;
  fs.mkdirSync(VISUAL_DIR, { recursive: true });
  await page.setViewportSize({ width, height: 844 });
  const file = path.join(VISUAL_DIR, `i33-${name}-${width === 390 ? 390 : "desktop"}.png`);
  if (part) await part.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

test("promotions: 早割 and セット割 set in 大会設定 price the order form, and the early price ends at its time there and at payment", async ({
  page,
  context,
  baseURL,
}) => {
  const base = baseURL ?? "";
  await loginAsAdmin(context, base, uniqueEmail("promotions-admin"));
  const name = `キャンペーン大会 ${test.info().project.name} ${Date.now()}`;
  const editPage = await createContest(page, name);
  const contestId = Number(/\/admin\/contest\/(\d+)/.exec(editPage)?.[1]);
  // What other tabs own, set directly: one category, an athlete on sale at 3,000円 (縦) and 4,500円 (横), published.
  withDb((db) => {
    db.prepare("insert into categories (contest_id, name, color) values (?, 'A部門', '#ef4444')").run(
      contestId,
    );
    db.prepare(
      "insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price, horizontal_video_price) values (?, 1, '桜井 花', 'A部門', '販売中', 3000, 4500)",
    ).run(contestId);
    db.prepare("update contests set site_public_status = '公開', video_published = 1 where id = ?").run(
      contestId,
    );
  });

  // 大会設定: a mistake is refused beside its field with what was typed kept; then saved.
  // A few minutes ahead: the flow reaches the verification step well before it, and the clock
  // moved past it stays inside the mailed code's 10 minutes.
  const endsAt = Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000;
  await page.goto(`${editPage}/settings`);
  const section = page.getByRole("region", { name: "キャンペーン価格" });
  await section.getByLabel("早割価格（縦・円）").fill("2500");
  await section.getByLabel(/両方ご注文で値引き/).fill("500");
  await section.getByRole("button", { name: "キャンペーン価格を保存" }).click();
  await expect(section.getByText("早割の終了日時を入力してください")).toBeVisible();
  await expect(section.getByLabel("早割価格（縦・円）")).toHaveValue("2500");
  await section.getByLabel("早割の終了日時（日本時間）").fill(toTokyoDateTimeInput(endsAt));
  await section.getByRole("button", { name: "キャンペーン価格を保存" }).click();
  await routerSettled(page);
  await expect(page.getByText("保存しました", { exact: true })).toBeVisible();
  // The toast in one short sentence; the section lists each promotion in full.
  await expect(page.getByText("キャンペーン価格を保存しました。実施中: 早割・セット割。")).toBeVisible();
  await expect(section.getByRole("list", { name: "現在のキャンペーン" })).toContainText(
    /早割：縦 2,500円、.* まで（実施中）/,
  );
  await expect(section.getByRole("list", { name: "現在のキャンペーン" })).toContainText(
    "セット割：同じ選手の縦・横セットで500円引き",
  );
  await expect(section.getByLabel("早割価格（縦・円）")).toHaveValue("2500");
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "promotions-settings", 390, section);
  await shot(page, "promotions-settings", 1280, section);

  // The parent's order form: the early price struck against the regular one, and the set discount.
  await context.clearCookies();
  await page.goto(`/order-form/${encodeURIComponent(contestSlug(name))}`);
  const notes = page.getByRole("region", { name: "キャンペーン" });
  await expect(notes).toContainText("までのご注文は早割価格");
  await expect(notes).toContainText("縦・横セットで500円引き");
  const item1 = page.getByRole("group", { name: "商品1" });
  const numbers = item1.getByLabel("ゼッケン番号");
  await expect(numbers.locator("option", { hasText: "桜井 花" })).toHaveText("1 桜井 花");
  await fillItem(page, 1, "A部門", /桜井 花/, "縦");
  // Without JS a choice posts nothing: 金額を計算する saves it and the page comes back priced.
  if (!jsEnabled()) await page.getByRole("button", { name: "金額を計算する" }).click();
  await expect(numbers).toHaveAccessibleDescription("縦 早割2,500円（通常3,000円）・横 4,500円");
  await expect(item1.locator("del")).toHaveText("通常価格3,000円");
  await expect(item1).toContainText("2,500円（税込）");
  await expect(item1).toContainText("早割 −500円");
  const total = page.getByText("合計", { exact: true }).locator("xpath=..");
  await expect(total).toHaveText("合計2,500円（税込）");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await expect(item1.locator("del")).toHaveText("通常価格3,000円");
  await expect(total).toHaveText("合計2,500円（税込）");
  await fillItem(page, 2, "A部門", /桜井 花/, "横");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await page.getByRole("button", { name: "商品3を削除" }).click();
  await expect(page.getByRole("group", { name: "商品3" })).toHaveCount(0);
  const item2 = page.getByRole("group", { name: "商品2" });
  // 縦 2,500 and 横 4,500 less the set's 500, split between the pair.
  await expect(item1.locator("del")).toHaveText("通常価格3,000円");
  await expect(item1).toContainText("2,250円（税込）");
  await expect(item1).toContainText("早割 −500円");
  await expect(item1).toContainText("セット割 −250円");
  await expect(item2.locator("del")).toHaveText("通常価格4,500円");
  await expect(item2).toContainText("4,250円（税込）");
  const discounts = page.getByRole("region", { name: "割引" });
  await expect(discounts).toContainText("通常価格の合計7,500円");
  await expect(discounts).toContainText("早割−500円");
  await expect(discounts).toContainText("セット割−500円");
  await expect(total).toHaveText("合計6,500円（税込）");
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "promotions-order-form", 390);
  await shot(page, "promotions-order-form", 1280);

  // The checkout starts before the end…
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page).toHaveURL(/\/order-confirmation$/);
  await expect(page.getByText("6,500円", { exact: false }).first()).toBeVisible();
  const email = uniqueEmail("promotions-parent");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("早割 花子");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);

  // …and reaches /payment after it: this test's own clock runs past the end.
  await context.addCookies([
    { name: TEST_CLOCK_COOKIE, value: String(endsAt - Date.now() + 30_000), url: base, sameSite: "Lax" },
  ]);
  await enterCode(page, codeFrom((await waitForMail(email)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByRole("button", { name: "7,000円（税込）を支払う" })).toBeVisible();
  // …and says why, above the new total, again after a reload (the prices last taken were 6,500円).
  const ended = page
    .getByRole("alert")
    .filter({ hasText: /^早割は .* に終了しました。合計金額が 6,500円 から 7,000円 に変わりました/ });
  await expect(ended).toBeVisible();
  await page.reload();
  await expect(ended).toBeVisible();

  // The order form after the end: the regular price, the set discount still there.
  await page.goto(`/order-form/${encodeURIComponent(contestSlug(name))}`);
  await expect(notes).not.toContainText("早割");
  await expect(notes).toContainText("縦・横セットで500円引き");
  await expect(numbers).toHaveAccessibleDescription("縦 3,000円・横 4,500円");
  await expect(item1.locator("del")).toHaveText("通常価格3,000円");
  await expect(item1).not.toContainText("早割");
  await expect(item1).toContainText("2,750円（税込）");
  await expect(discounts).not.toContainText("早割");
  await expect(discounts).toContainText("セット割−500円");
  await expect(total).toHaveText("合計7,000円（税込）");
});
