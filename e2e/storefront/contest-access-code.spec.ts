import { expect, test } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { withDb } from "../support/db";
import { codeFrom, enterCode, fillItem } from "../support/flows";
import { jsEnabled, uniqueEmail, waitForMail } from "../support/helpers";
import { photograph } from "../support/visual";

/**
 * A contest on sale behind the 合言葉 "Sakura-2026", of its own (one per project, so the specs
 * that run beside this one never meet a code on the seeded contest).
 */
function codedContest(): string {
  const tag = `${jsEnabled() ? "js" : "nojs"}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `合言葉の発表会 ${tag}`;
  withDb((db) => {
    const contestId = (
      db
        .prepare(
          `insert into contests (name, slug_key, video_published, site_public_status, access_code)
           values (?, ?, 1, '公開', 'Sakura-2026') returning id`,
        )
        .get(name, `合言葉の発表会${tag}`) as { id: number }
    ).id;
    db.prepare("insert into categories (contest_id, name, color) values (?, 'キッズ部門', '#ef4444')").run(
      contestId,
    );
    const format = db.prepare("insert into video_formats (contest_id, name, display_order) values (?, ?, ?)");
    format.run(contestId, "縦", 0);
    format.run(contestId, "横", 1);
    db.prepare(
      `insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price, horizontal_video_price)
       values (?, 1, '高橋 はると', 'キッズ部門', '販売中', 3000, 4500)`,
    ).run(contestId);
  });
  return name;
}

test("a contest behind its 合言葉: a wrong code is refused, the right one opens the order form, and the order's page opens without it", async ({
  page,
  browser,
}) => {
  const contest = codedContest();
  const email = uniqueEmail("passcode");
  await page.goto("/");
  const card = page.getByRole("listitem").filter({ hasText: contest });
  await expect(card).toContainText("合言葉が必要です");
  await card.getByRole("link", { name: "注文を開始する" }).click();

  // The form of the code, and nothing of the athletes.
  await expect(page.getByRole("heading", { name: "合言葉を入力してください" })).toBeVisible();
  await expect(page.getByText("高橋 はると")).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  expect(await axeViolations(page)).toEqual([]);
  await photograph(page, "contest-access-code");

  await page.getByRole("textbox", { name: "合言葉" }).fill("sakura-2025");
  await page.getByRole("button", { name: "注文フォームを開く" }).click();
  await expect(page.getByText(/合言葉が違います/)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "合言葉" })).toHaveValue("sakura-2025");

  // Another case and width open it as well.
  await page.getByRole("textbox", { name: "合言葉" }).fill("ＳＡＫＵＲＡ－２０２６");
  await page.getByRole("button", { name: "注文フォームを開く" }).click();
  await expect(page.getByRole("heading", { level: 1, name: contest })).toBeVisible();
  await fillItem(page, 1, "キッズ部門", /^1 高橋 はると/, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("合言葉 花子");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await enterCode(page, codeFrom((await waitForMail(email)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await page.getByLabel("カード名義").fill("HANAKO");
  await page.getByLabel("カード番号").fill("4242424242424242");
  await page.getByLabel("有効期限（MM/YY）").fill("12/39");
  await page.getByLabel("セキュリティコード").fill("123");
  await page.getByRole("button", { name: /を支払う/ }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
  const orderNumber = (await page.getByTestId("order-number").textContent())?.trim() ?? "";
  const statusPath = await page.getByRole("link", { name: "注文状況を確認する" }).getAttribute("href");

  // The order's own page, in a browser that never entered the code.
  const stranger = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  try {
    const other = await stranger.newPage();
    await other.goto(statusPath ?? "");
    await expect(other.getByText(orderNumber).first()).toBeVisible();
    await expect(other.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  } finally {
    await stranger.close();
  }
});
