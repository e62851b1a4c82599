import { expect, test } from "@playwright/test";
import { createUserInDb, logIn, randomIp, setFailedLogins } from "../support/account-helpers";
import { jsEnabled, uniqueEmail } from "../support/helpers";

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

test("registration shows the password's strength and the mismatch with the terms box unticked, every error at once", async ({
  page,
}) => {
  const email = uniqueEmail("item8");
  await page.goto("/register");
  await page.getByLabel("お名前").fill("山田 花子");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード", { exact: true }).fill("abcdefgh");
  await page.getByLabel("パスワード（確認）").fill("abcdefgx");
  const strength = page.getByText("英大文字・英小文字・数字のうち2種類以上を組み合わせてください", {
    exact: true,
  });
  const mismatch = page.getByText("パスワードが一致しません");
  if (jsEnabled()) {
    // As the parent types: leaving each field tells its problem, the terms box still unticked.
    await page.getByLabel("お名前").focus();
    await expect(strength).toBeVisible();
    await expect(mismatch).toBeVisible();
  }
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(strength).toBeVisible();
  await expect(mismatch).toBeVisible();
  await expect(page.getByText("利用規約とプライバシーポリシーへの同意が必要です")).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  // What was typed is kept, the passwords excepted (with JS they stay in the form that never left).
  await expect(page.getByLabel("お名前")).toHaveValue("山田 花子");
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);
  if (!jsEnabled()) await expect(page.getByLabel("パスワード", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("パスワード", { exact: true })).toHaveAttribute("aria-invalid", "true");

  // Fixed passwords, box still unticked: only the agreement is asked for.
  await page.getByLabel("パスワード", { exact: true }).fill("Hanako-2025");
  await page.getByLabel("パスワード（確認）").fill("Hanako-2025");
  await page.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(page.getByText("利用規約とプライバシーポリシーへの同意が必要です")).toBeVisible();
  await expect(strength).toHaveCount(0);
  await expect(mismatch).toHaveCount(0);
});

test("the password change says the code was sent, with JS (dialog) and without (page)", async ({ page }) => {
  const email = uniqueEmail("item9");
  await createUserInDb(email, "Old-Pass-2025");
  await page.goto("/login");
  await logIn(page, email, "Old-Pass-2025");
  await expect(page.getByRole("banner").getByRole("link", { name: "ログイン/新規登録" })).toHaveCount(0);
  await page.goto("/account");
  await page.getByRole("link", { name: "パスワードを変更" }).click();
  const steps = jsEnabled() ? page.getByRole("dialog", { name: "パスワードの変更" }) : page.getByRole("main");
  await steps.getByRole("button", { name: "認証コードを送信" }).click();
  await expect(steps.getByText("認証コードを送信しました。メールをご確認ください。")).toBeVisible();
  await expect(steps.getByText(`${email} にお送りした6桁の認証コードを入力してください。`)).toBeVisible();
  if (!jsEnabled()) {
    await expect(page).toHaveURL(/\/account\/password\?step=verify$/);
    // Once: a reload does not announce another mail.
    await page.reload();
    await expect(page.getByText(`${email} にお送りした6桁の認証コードを入力してください。`)).toBeVisible();
    await expect(page.getByText("認証コードを送信しました。メールをご確認ください。")).toHaveCount(0);
  }
});

test("the login page advises a strong password, cautions after 3 failures, then counts down from 5 left", async ({
  page,
}) => {
  const email = uniqueEmail("item20");
  await createUserInDb(email, "Right-Pass-2025");
  await page.goto("/login");
  const hint =
    "安全のため、パスワードは12文字以上で、英大文字・英小文字・数字・記号を組み合わせたものをおすすめします";
  await expect(page.getByText(hint)).toBeVisible();
  await expect(page.getByLabel("パスワード", { exact: true })).toHaveAccessibleDescription(hint);

  const caution =
    "ログインに複数回失敗しています。メールアドレスとパスワードをご確認ください。パスワードをお忘れの場合は「パスワードをお忘れの方」から再設定できます。";
  const alert = page
    .getByRole("alert")
    .filter({ hasText: "メールアドレスまたはパスワードが正しくありません" });
  for (let failure = 1; failure <= 3; failure++) {
    await logIn(page, email, `Wrong-Pass-${failure}`);
    await expect(alert).toBeVisible();
    if (failure < 3) await expect(page.getByText(caution)).toHaveCount(0);
  }
  await expect(alert).toContainText(caution);
  // What was typed is kept (the password excepted).
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);

  // The fifth failure: the attempts left take over from the general caution.
  setFailedLogins(email, 4);
  await logIn(page, email, "Wrong-Pass-5");
  await expect(alert).toContainText("あと5回失敗すると、アカウントが15分間ロックされます。");
  await expect(page.getByText(caution)).toHaveCount(0);
});
