import { expect, test } from "@playwright/test";
import { issueApiToken } from "../support/api-tokens";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/** The security page's APIトークン tab, with JavaScript on and off: issue, shown once, use, revoke. */

test("an admin issues an API token, sees it once, a script uses it, and the admin revokes it", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL!, uniqueEmail("token-admin"));
  const name = `納品スクリプト ${Math.random().toString(36).slice(2, 6)}`;

  // A name is required; the choices made are kept.
  await page.goto("/admin/security?tab=tokens");
  await page.getByLabel("読み取り専用（一覧・詳細の取得のみ）").check();
  await page.getByRole("button", { name: "トークンを発行" }).click();
  await expect(page.getByText("トークンの名前を入力してください")).toBeVisible();
  await expect(page.getByLabel("読み取り専用（一覧・詳細の取得のみ）")).toBeChecked();

  const token = await issueApiToken(page, { name, scope: "write" });
  const row = page.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("有効");
  await expect(row).toContainText("最終使用 なし");
  await expect(row).toContainText(token.slice(0, 10));

  // A script uses it without any cookie.
  const answer = await fetch(`${baseURL}/api/admin/security-dashboard`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);

  // Shown once: a later visit lists it, used, without the token itself.
  await page.goto("/admin/security?tab=tokens");
  await expect(page.getByLabel("発行したトークン")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(token);
  await expect(row).not.toContainText("最終使用 なし");

  // The use is in the login records.
  await page.goto("/admin/security?tab=logins");
  await expect(page.getByRole("row").filter({ hasText: "APIトークン使用" }).first()).toBeVisible();

  await page.goto("/admin/security?tab=tokens");
  await page.getByRole("button", { name: `トークン「${name}」を無効化` }).click();
  await expect(page.getByText("トークンを無効化しました")).toBeVisible();
  await expect(row).toContainText("無効化済み");
  const refused = await fetch(`${baseURL}/api/admin/security-dashboard`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(refused.status).toBe(401);
});
