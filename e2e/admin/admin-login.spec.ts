import { expect, test, type Page } from "@playwright/test";
import { authenticator } from "otplib";
import { jsEnabled, uniqueEmail, waitForMail } from "../support/helpers";
import { createUser } from "../support/users";

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto("/admin-login");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "ログイン" }).click();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("認証コード（6桁）").fill(code);
  await page.getByRole("button", { name: "認証する" }).click();
}

test("admin login: password, then the code from the mail, then the dashboard; logout ends it", async ({
  page,
}) => {
  const admin = await createUser({ email: uniqueEmail("login-admin"), isAdmin: true });
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin-login$/);
  await expect(page.getByText("認証が必要です", { exact: true })).toBeVisible();

  await passwordStep(page, admin.email, "wrong-password-1");
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();

  await passwordStep(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/admin-2fa-verify$/);
  await expect(page.getByText(jsEnabled() ? /残り時間: \d+:\d{2}（\d+秒）/ : /有効期限: /)).toBeVisible();
  const mail = await waitForMail(admin.email);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
  await enterCode(page, code === "000000" ? "111111" : "000000");
  await expect(page.getByText(/認証コードが正しくありません/)).toBeVisible();
  await enterCode(page, code);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "大会管理" })).toBeVisible();
  await expect(page.getByText(admin.email)).toBeVisible();

  await page.getByRole("button", { name: "ログアウト" }).click();
  await expect(page).toHaveURL(/\/admin-login$/);
  await expect(page.getByText("管理者セッションを終了しました")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin-login$/);
});

test("a customer's account cannot enter the back-office, with the same message as a wrong password", async ({
  page,
}) => {
  const customer = await createUser({ email: uniqueEmail("not-admin") });
  await passwordStep(page, customer.email, customer.password);
  await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
  await expect(page).toHaveURL(/\/admin-login$/);
});

/** The app's code now, or a step ahead (which the server accepts, as from a phone whose clock runs ahead). */
function appCode(secret: string, stepsAhead = 0): string {
  return authenticator.clone({ epoch: Date.now() + stepsAhead * 30_000 }).generate(secret);
}

test("authenticator app: set up and replaced only with the password and the current factor; each change mails a notice", async ({
  page,
}) => {
  const admin = await createUser({ email: uniqueEmail("totp-admin"), isAdmin: true });
  await passwordStep(page, admin.email, admin.password);
  const code = /\b(\d{6})\b/.exec((await waitForMail(admin.email)).text)?.[1] ?? "";
  await enterCode(page, code);
  await expect(page).toHaveURL(/\/admin$/);

  // Setting up: nothing is shown until the password and a mailed code are given.
  await page.getByRole("link", { name: "2段階認証の設定" }).click();
  await expect(page.getByRole("heading", { name: "本人確認" })).toBeVisible();
  await expect(page.getByRole("img", { name: "認証アプリ用のQRコード" })).toHaveCount(0);
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page.getByText("認証コードを送信しました。メールをご確認ください。")).toBeVisible();
  const changeMail = await waitForMail(admin.email, 2);
  expect(changeMail.subject).toContain("2段階認証の設定変更の確認コード");
  const changeCode = /\b(\d{6})\b/.exec(changeMail.text)?.[1] ?? "";
  await page.getByLabel("パスワード").fill("Wrong-Password-1");
  await page.getByLabel("メールの認証コード（6桁）").fill(changeCode);
  await page.getByRole("button", { name: "認証アプリを設定する" }).click();
  await expect(page.getByText("パスワードが正しくありません")).toBeVisible();
  await page.getByLabel("パスワード").fill(admin.password);
  await page.getByLabel("メールの認証コード（6桁）").fill(changeCode);
  await page.getByRole("button", { name: "認証アプリを設定する" }).click();

  await expect(page.getByRole("img", { name: "認証アプリ用のQRコード" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  await page.getByLabel("認証コード（6桁）").fill("12345");
  await page.getByRole("button", { name: "確認して有効にする" }).click();
  await expect(page.getByText("6桁の認証コードを入力してください")).toBeVisible();
  await page.getByLabel("認証コード（6桁）").fill(appCode(secret));
  await page.getByRole("button", { name: "確認して有効にする" }).click();
  await expect(page.getByRole("heading", { name: "設定が完了しました" })).toBeVisible();
  expect((await waitForMail(admin.email, 3)).subject).toContain("2段階認証に認証アプリを設定しました");

  // Replacing it: the password and the current app's code (its next one: this step's is used up).
  await page.goto("/admin/two-factor-setup");
  await expect(page.getByText("認証アプリは設定済みです。")).toBeVisible();
  await expect(page.getByRole("button", { name: "認証コードを送信" })).toHaveCount(0);
  await page.getByLabel("パスワード").fill(admin.password);
  await page.getByLabel("認証アプリのコード（6桁）").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "新しい認証アプリを設定する" }).click();
  await expect(page.getByRole("img", { name: "認証アプリ用のQRコード" })).toBeVisible();
  const newSecret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(newSecret).not.toBe(secret);
  await page.getByLabel("認証コード（6桁）").fill(appCode(newSecret));
  await page.getByRole("button", { name: "確認して有効にする" }).click();
  await expect(page.getByRole("heading", { name: "設定が完了しました" })).toBeVisible();
  expect((await waitForMail(admin.email, 4)).subject).toContain("2段階認証の認証アプリを変更しました");

  await page.goto("/admin");
  await page.getByRole("button", { name: "ログアウト" }).click();
  // Wait for the logout to land: a navigation started before it would cancel it and find the session alive.
  await expect(page.getByText("管理者セッションを終了しました")).toBeVisible();
  await passwordStep(page, admin.email, admin.password);
  await expect(page.getByText("認証アプリに表示されている6桁のコードを入力してください。")).toBeVisible();
  // The old app's codes no longer log in; the new app's next code does.
  await enterCode(page, appCode(secret, 1));
  await expect(page.getByText("認証コードが正しくありません")).toBeVisible();
  await enterCode(page, appCode(newSecret, 1));
  await expect(page).toHaveURL(/\/admin$/);
  // No code mail was sent for this login: the app replaced it.
  await expect.poll(async () => (await import("../support/helpers")).mailsTo(admin.email).length).toBe(4);
});

test("admin second factor locks after 5 wrong codes across two logins", async ({ page }) => {
  const admin = await createUser({ email: uniqueEmail("2fa-lock"), isAdmin: true });
  const wrong = (code: string) => (code === "000000" ? "111111" : "000000");

  // Three wrong codes on the first login's code.
  await passwordStep(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/admin-2fa-verify$/);
  const first = /\b(\d{6})\b/.exec((await waitForMail(admin.email)).text)?.[1] ?? "";
  await enterCode(page, wrong(first));
  await expect(page.getByText("認証コードが正しくありません。再度お試しください。")).toBeVisible();
  await enterCode(page, wrong(first));
  await expect(page.getByText("残り試行回数: 3回")).toBeVisible();
  await enterCode(page, wrong(first));
  await expect(page.getByText("残り試行回数: 2回")).toBeVisible();

  // A new login mails a new code, but brings no new tries.
  await passwordStep(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/admin-2fa-verify$/);
  const second = /\b(\d{6})\b/.exec((await waitForMail(admin.email, 2)).text)?.[1] ?? "";
  await enterCode(page, wrong(second));
  await expect(page.getByText("残り試行回数: 1回。次に失敗すると15分間ロックされます")).toBeVisible();
  // The 5th wrong code locks: without JavaScript the form post itself is answered with 423.
  const fifth = jsEnabled()
    ? null
    : page.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().endsWith("/admin-2fa-verify"),
      );
  await enterCode(page, wrong(second));
  if (fifth) expect((await fifth).status()).toBe(423);
  await expect(
    page.getByText(/認証コードの入力に続けて失敗したため、アカウントを一時的にロックしました。/),
  ).toBeVisible();
  await expect(page.getByText(/ロック解除予定: /)).toBeVisible();
  await expect(page.getByRole("button", { name: "認証する" })).toBeDisabled();

  // The right code is refused too (423), as is the password step.
  const rightCode = await page.request.post("/admin-2fa-verify", {
    form: { intent: "verify", code: second },
  });
  expect(rightCode.status()).toBe(423);
  await passwordStep(page, admin.email, admin.password);
  await expect(
    page.getByText("管理者アカウントがロックされています。15分後に再試行してください"),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin-login$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin-login$/);
});

test("the code page without a password step goes back to login", async ({ page }) => {
  await page.goto("/admin-2fa-verify");
  await expect(page).toHaveURL(/\/admin-login$/);
});
