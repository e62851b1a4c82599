import { expect, test, type Page } from "@playwright/test";
import { codeFrom, enterCode, fillItem, openOrderForm } from "../support/flows";
import { uniqueEmail, waitForMail } from "../support/helpers";

/** The confirmation step with this address: a code is mailed and the code page opens. */
async function confirmAddress(page: Page, email: string) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("試行 花子");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
}

async function wrongCode(page: Page, right: string, answer: RegExp) {
  await enterCode(page, right === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page.getByRole("alert").filter({ hasText: answer })).toBeVisible();
}

test("after 10 wrong codes across an address switch the checkout starts over, keeping what was chosen", async ({
  page,
}) => {
  const email = uniqueEmail("restart");
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await confirmAddress(page, email);
  const first = codeFrom((await waitForMail(email)).text);
  for (let left = 4; left >= 1; left--) await wrongCode(page, first, new RegExp(`あと${left}回`));
  await wrongCode(page, first, /入力回数の上限に達しました/);

  // Away to another address and back: a fresh code, but no fresh tries for the checkout.
  await page.getByRole("link", { name: "メールアドレスを修正する" }).click();
  await confirmAddress(page, uniqueEmail("elsewhere"));
  await page.getByRole("link", { name: "メールアドレスを修正する" }).click();
  await confirmAddress(page, email);
  const second = codeFrom((await waitForMail(email, 2)).text);
  for (let left = 4; left >= 1; left--) await wrongCode(page, second, new RegExp(`あと${left}回`));
  await enterCode(page, "000000" === second ? "111111" : "000000");
  await page.getByRole("button", { name: "認証する" }).click();

  await expect(
    page.getByRole("heading", { level: 1, name: "お手続きを最初からやり直してください" }),
  ).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("認証コードの入力に続けて失敗したため");
  await page.getByRole("link", { name: "注文フォームに戻る" }).click();
  const item = page.getByRole("group", { name: "商品1" });
  await expect(item.getByLabel("部門")).toHaveValue("キッズ部門");
  await expect(item.getByRole("radio", { name: "縦" })).toBeChecked();

  // The code still in the mailbox is of no use: the new draft asks for an address again.
  await page.goto("/email-verification");
  await expect(page).toHaveURL(/\/order-confirmation$/);
  await expect(page.getByLabel("メールアドレス")).toHaveValue("");
});
