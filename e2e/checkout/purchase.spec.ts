import { expect, test } from "@playwright/test";
import { ordersFor } from "../support/db";
import { CONTEST, codeFrom, enterCode, fillItem, openOrderForm } from "../support/flows";
import { jsEnabled, uniqueEmail, waitForMail } from "../support/helpers";

test("order form validation keeps what the customer chose", async ({ page }) => {
  await openOrderForm(page);
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByText("すべての項目を選択してください")).toBeVisible();

  await page.getByRole("button", { name: "商品1を削除" }).click();
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByText("注文項目を選択してください")).toBeVisible();

  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await page.getByRole("group", { name: "商品1" }).getByLabel("部門").selectOption("キッズ部門");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByText("すべての項目を選択してください")).toBeVisible();
  await expect(page.getByRole("group", { name: "商品1" }).getByLabel("部門")).toHaveValue("キッズ部門");
});

test("the draft is kept on the server and restored when the customer comes back", async ({ page }) => {
  await openOrderForm(page);
  await fillItem(page, 1, "ジュニア部門", /^2 /, "横");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await expect(page.getByRole("group", { name: "商品2" })).toBeVisible();
  // Item 1's price is shown once chosen: athlete 2's horizontal price.
  await expect(page.getByRole("group", { name: "商品1" })).toContainText("5,000円（税込）");

  await page.goto("/about");
  await openOrderForm(page);
  const item = page.getByRole("group", { name: "商品1" });
  await expect(item.getByLabel("部門")).toHaveValue("ジュニア部門");
  await expect(item.getByRole("radio", { name: "横" })).toBeChecked();
  await expect(page.getByRole("group", { name: "商品2" })).toBeVisible();
});

test("a full purchase: order form → confirmation → e-mail code → declined card → paid order", async ({
  page,
}) => {
  const email = uniqueEmail("buyer");
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await fillItem(page, 2, "ジュニア部門", /^2 /, "横");
  if (jsEnabled()) await expect(page.getByText("8,000円（税込）").first()).toBeVisible();
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();

  await expect(page).toHaveURL(/\/order-confirmation$/);
  await expect(page.getByRole("heading", { name: "注文内容の確認" })).toBeVisible();
  await expect(page.getByText("合計金額")).toBeVisible();
  await expect(page.getByText("8,000円（税込）")).toBeVisible();
  await expect(
    page.getByText("デジタル商品のため、ご注文確定後のキャンセル・返品はできません"),
  ).toBeVisible();

  // Bad input: the typed name stays, the message shows.
  await page.getByLabel("メールアドレス").fill("not-an-address");
  await page.getByLabel("お名前").fill("山田 花子");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page.getByText("メールアドレスの形式が正しくありません")).toBeVisible();
  await expect(page.getByLabel("お名前")).toHaveValue("山田 花子");

  await page.getByLabel("メールアドレス").fill(email);
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);

  const codeMail = await waitForMail(email);
  expect(codeMail.subject).toContain("確認コード");
  const code = codeFrom(codeMail.text);

  // A wrong code first.
  await enterCode(page, code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page.getByText(/認証コードが正しくありません。再度お試しください。/)).toBeVisible();

  await enterCode(page, code);
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByText("認証が完了しました")).toBeVisible();
  await expect(page.locator("#card-payment").getByText("テストモード")).toBeVisible();

  const pay = async (card: string) => {
    await page.getByLabel("カード名義").fill("HANAKO YAMADA");
    await page.getByLabel("カード番号").fill(card);
    await page.getByLabel("有効期限（MM/YY）").fill("12/34");
    await page.getByLabel("セキュリティコード").fill("123");
    await page.getByRole("button", { name: /8,000円（税込）を支払う/ }).click();
  };
  await pay("4000 0000 0000 0002");
  await expect(page.getByText(/決済エラー: カードが拒否されました/)).toBeVisible();
  expect(ordersFor(email)).toHaveLength(0);

  await pay("4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/payment-complete$/);
  const orderNumber = (await page.getByTestId("order-number").textContent())?.trim() ?? "";
  expect(orderNumber).toMatch(/^\d{8}$/);
  await expect(page.getByText("ご注文ありがとうございます").first()).toBeVisible();

  const [stored] = ordersFor(email);
  expect(stored?.order).toMatchObject({
    order_number: orderNumber,
    customer_name: "山田 花子",
    total_amount: 8000,
    status: "未対応",
    contest_name: CONTEST,
  });
  expect(stored?.lines).toEqual([
    { line_number: `${orderNumber}-1`, category: "キッズ部門", athlete_number: 1, style: "縦", price: 3000 },
    {
      line_number: `${orderNumber}-2`,
      category: "ジュニア部門",
      athlete_number: 2,
      style: "横",
      price: 5000,
    },
  ]);

  const confirmation = await waitForMail(email, 2);
  expect(confirmation.subject).toContain(orderNumber);
  expect(confirmation.text).toContain("8,000円（税込）");
  // The promised day, counted in business days from the payment (3 by default).
  expect(confirmation.text).toMatch(/お届け予定日は\d{4}年\d{1,2}月\d{1,2}日（[月火水木金]）です/);

  // The checkout is closed: going back to payment starts over.
  await page.goto("/payment");
  await expect(page).toHaveURL(/\/$/);
});

test("auto-login: password rules on the confirmation, then the account is made and logged in after payment", async ({
  page,
}) => {
  const email = uniqueEmail("autologin");
  await openOrderForm(page);
  await fillItem(page, 1, "一般部門", /^3 /, "縦");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();

  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("佐藤 一郎");
  await page.getByLabel("次回から自動ログイン").check();
  await page.getByLabel("パスワード（8文字以上）").fill("short");
  await page.getByLabel("パスワード（確認）").fill("short");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page.getByText("パスワードは8文字以上で入力してください")).toBeVisible();
  await expect(page.getByLabel("お名前")).toHaveValue("佐藤 一郎");
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);

  await page.getByLabel("パスワード（8文字以上）").fill("Kodomo2025");
  await page.getByLabel("パスワード（確認）").fill("Kodomo2026");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page.getByText("パスワードが一致しません")).toBeVisible();

  await page.getByLabel("パスワード（8文字以上）").fill("Kodomo2025");
  await page.getByLabel("パスワード（確認）").fill("Kodomo2025");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);

  const code = codeFrom((await waitForMail(email)).text);
  if (jsEnabled()) {
    // Pasting all six digits into the first box fills every box.
    await page.getByRole("group", { name: "6桁の認証コード" }).getByRole("textbox").first().focus();
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData("text", text);
      document.activeElement?.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, code);
    await expect(
      page.getByRole("group", { name: "6桁の認証コード" }).getByRole("textbox").last(),
    ).toHaveValue(code.at(-1) ?? "");
  } else {
    await enterCode(page, code);
  }
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);

  await page.getByLabel("カード名義").fill("ICHIRO SATO");
  await page.getByLabel("カード番号").fill("4242424242424242");
  await page.getByLabel("有効期限（MM/YY）").fill("01/40");
  await page.getByLabel("セキュリティコード").fill("999");
  await page.getByRole("button", { name: /を支払う/ }).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
  await expect(page.getByText("登録が完了し、自動ログインしました")).toBeVisible();
  // The header now knows the customer.
  await expect(
    page.getByRole("button", { name: "アカウントメニュー" }).or(page.getByLabel("アカウントメニュー")),
  ).toBeVisible();
  expect(ordersFor(email)).toHaveLength(1);
});

test("the resend button is limited to once a minute", async ({ page }) => {
  const email = uniqueEmail("resend");
  await openOrderForm(page);
  await fillItem(page, 1, "キッズ部門", /^1 /, "横");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill("再送 花子");
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await page.getByRole("button", { name: "認証コードを再送信" }).click();
  await expect(page.getByText(/再送信は\d+秒後にお試しください/)).toBeVisible();
});
