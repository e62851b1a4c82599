import { expect, test, type Locator, type Page } from "@playwright/test";
import { routerSettled, uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";
import { photograph } from "../support/visual";

/**
 * クーポン管理 with JavaScript on and off: a refused coupon keeps what was typed, then it is
 * created and listed, edited through its 編集 link, stopped and restarted. With JS on, the
 * screen is photographed on a phone and a desktop.
 */

const row = (page: Page, code: string) => page.locator(`[data-coupon="${code}"]:visible`);

/** The list's own words (not the free text of a label or a code) that a line break cuts in two. */
const LIST_WORDS = ["上限なし", "制限なし", "最低金額", "1アドレス", "利用上限", "割引額"];

/** Which of LIST_WORDS in an element's text a line break cuts in two (「上限」 on one line, 「なし」 on the next). */
function cutWords(scope: Locator): Promise<string[]> {
  return scope.evaluate((element, words) => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const word of words)
        for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + word.length);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) cut.push(word);
        }
    }
    return cut;
  }, LIST_WORDS);
}

test("クーポン管理: a refusal keeps the typed values; create, list, edit, 停止 and 再開", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("coupons-admin"));
  const code = `E2E-${test.info().project.name.toUpperCase()}-${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "管理メニュー" })
    .getByRole("link", { name: "クーポン管理" })
    .click();
  await expect(page.getByRole("heading", { name: "クーポン管理" })).toBeVisible();
  await routerSettled(page);

  // A percent over 100 is refused beside its field; nothing typed is lost.
  await page.getByLabel("クーポンコード").fill(code.toLowerCase());
  await page.getByLabel("%引き", { exact: true }).check();
  await page.getByLabel("割引額（円 または %）").fill("150");
  await page.getByLabel("メモ（管理用・お客様には表示されません）").fill("合唱部の保護者向け");
  await page.getByLabel("最低金額（円）").fill("3000");
  await page.getByLabel("終了日時（日本時間）").fill("2036-03-31T23:59");
  await page.getByLabel("利用上限（1アドレスあたり）").fill("1");
  await page.getByRole("button", { name: "クーポンを追加" }).click();
  await expect(page.getByText("%の割引は1〜100%で入力してください")).toBeVisible();
  await expect(page.getByLabel("クーポンコード")).toHaveValue(code.toLowerCase());
  await expect(page.getByLabel("%引き", { exact: true })).toBeChecked();
  await expect(page.getByLabel("メモ（管理用・お客様には表示されません）")).toHaveValue("合唱部の保護者向け");
  await expect(page.getByLabel("最低金額（円）")).toHaveValue("3000");
  await expect(page.getByLabel("終了日時（日本時間）")).toHaveValue("2036-03-31T23:59");
  await expect(page.getByLabel("利用上限（1アドレスあたり）")).toHaveValue("1");
  await photograph(page, "i33-coupons-admin-refused");

  // Corrected: added, and listed with its code upper-cased.
  await page.getByLabel("割引額（円 または %）").fill("15");
  await page.getByRole("button", { name: "クーポンを追加" }).click();
  await routerSettled(page);
  await expect(page.getByText(`クーポン ${code} を追加しました。`)).toBeVisible();
  const listed = row(page, code);
  await expect(listed).toContainText("15%引き");
  await expect(listed).toContainText("合唱部の保護者向け");
  await expect(listed).toContainText("すべての大会");
  await expect(listed).toContainText("有効");
  await expect(listed).toContainText("2036/03/31 23:59");
  // The form is empty again for the next coupon.
  await expect(page.getByLabel("クーポンコード")).toHaveValue("");
  await expect(page.getByLabel("メモ（管理用・お客様には表示されません）")).toHaveValue("");
  await photograph(page, "i33-coupons-admin");

  // 編集: the form fills with the coupon; a taken code is refused, then a change is saved.
  await listed.getByRole("link", { name: `${code} を編集` }).click();
  await expect(page.getByRole("heading", { name: `クーポンを編集（${code}）` })).toBeVisible();
  await expect(page.getByLabel("割引額（円 または %）")).toHaveValue("15");
  await routerSettled(page);
  await page.getByLabel("メモ（管理用・お客様には表示されません）").fill("合唱部（2026年度）");
  await page.getByLabel("利用上限（全体）").fill("0");
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(page.getByText("利用上限（全体）は1以上で入力してください")).toBeVisible();
  await expect(page.getByLabel("メモ（管理用・お客様には表示されません）")).toHaveValue("合唱部（2026年度）");
  await page.getByLabel("利用上限（全体）").fill("200");
  await page.getByLabel("最低金額（円）").fill("0");
  await page.getByRole("button", { name: "保存する" }).click();
  await routerSettled(page);
  await expect(page.getByText(`クーポン ${code} を保存しました。`)).toBeVisible();
  await expect(row(page, code)).toContainText("合唱部（2026年度）");
  await expect(row(page, code)).toContainText("全体 200回");
  // 0 is the form's 制限なし, and the list says so; on a phone, a tablet and a desktop no word is cut by a line break.
  await expect(row(page, code)).toContainText("制限なし");
  await expect(row(page, code)).not.toContainText("最低 0円");
  for (const width of [390, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await cutWords(row(page, code)), `at ${width}px`).toEqual([]);
    const heading = page.getByRole("columnheader", { name: "利用 ／ 割引額" });
    if (await heading.isVisible()) expect(await cutWords(heading), `the heading at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // 停止, then 再開.
  await row(page, code)
    .getByRole("button", { name: `${code} を停止` })
    .click();
  await routerSettled(page);
  await expect(row(page, code)).toContainText("停止中");
  await row(page, code)
    .getByRole("button", { name: `${code} を再開` })
    .click();
  await routerSettled(page);
  await expect(row(page, code)).toContainText("有効");
});
