import { expect, test, type Page } from "@playwright/test";
import { holdEarlierOrdersInDb } from "../support/account-helpers";
import { ordersFor } from "../support/db";
import {
  checkoutTwoVideosUntilPayment,
  codeFrom,
  enterCode,
  fillItem,
  openOrderForm,
} from "../support/flows";
import { jsEnabled, mailsTo, uniqueEmail, waitForMail } from "../support/helpers";
import { createUser, putSessionCookie } from "../support/users";

async function payWithTestCard(page: Page, amount: string) {
  await page.getByLabel("カード名義").fill("TARO");
  await page.getByLabel("カード番号").fill("4242424242424242");
  await page.getByLabel("有効期限（MM/YY）").fill("12/39");
  await page.getByLabel("セキュリティコード").fill("123");
  await page.getByRole("button", { name: `${amount}を支払う` }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
}

test("from the payment page the parent goes back, changes the videos and pays the new total without a new code", async ({
  page,
}) => {
  const email = uniqueEmail("back-videos");
  await checkoutTwoVideosUntilPayment(page, email, "戻る 太郎");
  await expect(page.getByRole("button", { name: "8,000円（税込）を支払う" })).toBeVisible();

  await page.getByRole("link", { name: "戻る（お客様情報の変更）" }).click();
  await expect(page).toHaveURL(/\/order-confirmation$/);
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);
  await expect(page.getByText("確認済みのアドレスです。")).toBeVisible();
  await page.getByRole("link", { name: "戻る", exact: true }).click();

  // The draft's choices are all there; the second video is taken out.
  await expect(page.getByRole("group", { name: "商品2" }).getByLabel("部門")).toHaveValue("ジュニア部門");
  await page.getByRole("button", { name: "商品2を削除" }).click();
  await expect(page.getByRole("group", { name: "商品2" })).toHaveCount(0);
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page).toHaveURL(/\/order-confirmation$/);
  await page.getByRole("button", { name: "お支払いへ進む" }).click();

  await expect(page).toHaveURL(/\/payment$/);
  await payWithTestCard(page, "3,000円（税込）");
  expect(mailsTo(email).filter((mail) => mail.subject.includes("確認コード"))).toHaveLength(1);
  const [made] = ordersFor(email);
  expect(made?.order.total_amount).toBe(3000);
  expect(made?.lines).toHaveLength(1);
});

test("a changed address on the way back is asked for its own code", async ({ page }) => {
  const email = uniqueEmail("back-first");
  const other = uniqueEmail("back-second");
  await checkoutTwoVideosUntilPayment(page, email, "戻る 花子");
  await page.getByRole("link", { name: "選んだ動画を変更する" }).click();
  await expect(page.getByRole("group", { name: "商品2" })).toBeVisible();
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();

  await page.getByLabel("メールアドレス").fill(other);
  // With JS the button's label follows the typed address; without JS it is the one the page opened
  // with (the hint under the field says a changed address gets a code).
  await page
    .getByRole("button", { name: jsEnabled() ? "確認コードを送信して次へ" : "お支払いへ進む" })
    .click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await expect(page.getByText(other)).toBeVisible();
  // The payment page waits for the new address's code.
  await page.goto("/payment");
  await expect(page).toHaveURL(/\/email-verification$/);
  await enterCode(page, codeFrom((await waitForMail(other)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await payWithTestCard(page, "8,000円（税込）");
  expect(ordersFor(other)).toHaveLength(1);
  expect(ordersFor(email)).toHaveLength(0);
});

test("a logged-in customer with a confirmed address pays without a mailed code; an auto-login account's unconfirmed address still gets one", async ({
  page,
  context,
  baseURL,
}) => {
  const member = await createUser({ email: uniqueEmail("member"), name: "会員 太郎" });
  await putSessionCookie(context, baseURL ?? "", { userId: member.id, loggedInAt: Date.now() });
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByLabel("メールアドレス")).toHaveValue(member.email);
  await expect(page.getByText("確認済みのアドレスです。")).toBeVisible();
  await page.getByRole("button", { name: "お支払いへ進む" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await payWithTestCard(page, "3,000円（税込）");
  expect(ordersFor(member.email)).toHaveLength(1);
  expect(mailsTo(member.email).filter((mail) => mail.subject.includes("確認コード"))).toHaveLength(0);

  // An account the checkout's auto-login made has not confirmed its address: the code is asked.
  const autoMade = await createUser({ email: uniqueEmail("auto-made"), name: "自動 花子" });
  holdEarlierOrdersInDb(autoMade.email);
  await context.clearCookies();
  await putSessionCookie(context, baseURL ?? "", { userId: autoMade.id, loggedInAt: Date.now() });
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByLabel("メールアドレス")).toHaveValue(autoMade.email);
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await waitForMail(autoMade.email);
});

test("a button press saves the choices on the server (with or without JS), and they come back when the parent returns", async ({
  page,
}) => {
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await page.goto("/about");
  await openOrderForm(page);
  const first = page.getByRole("group", { name: "商品1" });
  await expect(first.getByLabel("部門")).toHaveValue("キッズ部門");
  await expect(first.getByRole("radio", { name: "縦" })).toBeChecked();
  await expect(page.getByRole("group", { name: "商品2" })).toBeVisible();
});

test("with JS, choices made since the last button press come back when the parent returns, and not after the order @js-only", async ({
  page,
}) => {
  const email = uniqueEmail("restore");
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.goto("/about");
  await openOrderForm(page);
  const first = page.getByRole("group", { name: "商品1" });
  await expect(first.getByLabel("部門")).toHaveValue("キッズ部門");
  await expect(first.getByRole("radio", { name: "縦" })).toBeChecked();
  await expect(first).toContainText("3,000円（税込）");

  // A button press saves the draft on the server; the next choice is kept in the browser again.
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await fillItem(page, 2, "ジュニア部門", /^2 /, "横");
  await page.goto("/");
  await openOrderForm(page);
  await expect(first.getByLabel("部門")).toHaveValue("キッズ部門");
  const second = page.getByRole("group", { name: "商品2" });
  await expect(second.getByLabel("部門")).toHaveValue("ジュニア部門");
  await expect(second.getByRole("radio", { name: "横" })).toBeChecked();
  await expect(page.getByText("8,000円（税込）").first()).toBeVisible();

  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("復元 太郎");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await enterCode(page, codeFrom((await waitForMail(email)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await payWithTestCard(page, "8,000円（税込）");
  expect(
    await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("order-form:"))),
  ).toEqual([]);
  await openOrderForm(page);
  await expect(first.getByLabel("部門")).toHaveValue("");
  await expect(page.getByRole("group", { name: "商品2" })).toHaveCount(0);
});

test("the number list is grouped by category and names each athlete; the chosen one's prices show under it, priced without JS by 金額を計算する", async ({
  page,
}) => {
  await openOrderForm(page);
  const item = page.getByRole("group", { name: "商品1" });
  const list = item.getByLabel("エントリー番号");
  expect(
    await list.locator("optgroup").evaluateAll((groups) => groups.map((g) => g.getAttribute("label"))),
  ).toEqual(["キッズ部門", "ジュニア部門", "一般部門"]);
  // Number and name only: with each style's price the chosen entry was cut mid-price on a phone.
  await expect(list.locator("optgroup[label='キッズ部門'] option").first()).toHaveText(/^1 [^（）]+$/);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  const priceButton = page.getByRole("button", { name: "金額を計算する" });
  // Without JS a choice posts nothing: the button saves it and the page comes back priced.
  if (jsEnabled()) await expect(priceButton).toBeHidden();
  else await priceButton.click();
  await expect(list).toHaveAccessibleDescription(/^縦 3,000円・横 [\d,]+円$/);
  await expect(item).toContainText("価格: 3,000円（税込）");
  await expect(page.getByText("合計", { exact: true }).locator("xpath=..")).toHaveText("合計3,000円（税込）");
  // The choice made from the list is priced as the page said.
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page).toHaveURL(/\/order-confirmation$/);
  await expect(page.getByText("3,000円（税込）").first()).toBeVisible();
});

test("choices made before the page's script runs are kept and priced, not covered by those saved on an earlier visit @js-only", async ({
  page,
}) => {
  await openOrderForm(page);
  await fillItem(page, 1, "ジュニア部門", /^2 /, "横");
  // The page again, its script held back (a busy phone) while the parent chooses.
  const held: (() => Promise<void>)[] = [];
  let holding = true;
  await page.route(/\.js$/, (route) => (holding ? void held.push(() => route.continue()) : route.continue()));
  await page.reload({ waitUntil: "commit" });
  const item = page.getByRole("group", { name: "商品1" });
  await expect(item.getByLabel("部門")).toHaveValue("");
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  holding = false;
  await Promise.all(held.map((release) => release()));
  await expect(item).toContainText("価格: 3,000円（税込）");
  await expect(item.getByLabel("部門")).toHaveValue("キッズ部門");
  await expect(item.getByRole("radio", { name: "縦" })).toBeChecked();
  await expect(item.getByLabel("エントリー番号")).toHaveAccessibleDescription(/^縦 3,000円/);
});
