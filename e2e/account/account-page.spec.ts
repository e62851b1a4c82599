import { expect, test } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { uniqueEmail } from "../support/helpers";
import { createUser, putSessionCookie } from "../support/users";

/**
 * Regression: the account page's password row wrapped its <dt>/<dd> in a second <div>
 * with the change link beside them inside the <dl> (axe: definition-list and dlitem, serious).
 */
test("the account page's registered details are a valid definition list, and the change link is in it", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const user = await createUser({ email: uniqueEmail("account-dl"), name: "一覧 花子" });
  await putSessionCookie(context, baseURL ?? "", { userId: user.id, loggedInAt: Date.now() });
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1, name: "アカウント" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`account-${viewport.width}.png`) });
  }
  // Every rule (the whole page is clean), definition-list and dlitem among them.
  expect(await axeViolations(page)).toEqual([]);
  const row = page
    .getByRole("definition")
    .filter({ has: page.getByRole("link", { name: "パスワードを変更" }) });
  await expect(row).toHaveCount(1);
});
