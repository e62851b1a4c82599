import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createUserInDb, expectLoggedOut, logIn, otherBrowser, randomIp } from "../support/account-helpers";
import { uniqueEmail } from "../support/helpers";

// Sessions live on the server: ending one (logout, 他の端末からログアウト) ends it for every copy
// of its cookie. Both tests run with JavaScript on and off.

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

const PASSWORD = "Test-Password-2025";

async function logInAt(page: Page, email: string) {
  await page.goto("/login");
  await logIn(page, email, PASSWORD);
  await expect(page.getByRole("banner").getByLabel("アカウントメニュー")).toBeVisible();
}

async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === "shop_session");
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

test("logout, then replaying the session cookie copied before it gets the login page", async ({
  page,
  context,
  browser,
}) => {
  const email = uniqueEmail("replay");
  await createUserInDb(email, PASSWORD);
  await logInAt(page, email);
  const copied = await sessionCookie(context);

  await page.goto("/account");
  await page.getByRole("button", { name: "ログアウト", exact: true }).click();
  await expectLoggedOut(page);

  // Another browser holding the copy, as an attacker who took the cookie would.
  const attacker = await otherBrowser(browser);
  await attacker.addCookies([copied]);
  const stolen = await attacker.newPage();
  await stolen.goto("/account");
  await expect(stolen).toHaveURL(/\/login\?redirectTo=\/account$/);
  await expect(stolen.getByRole("heading", { level: 1, name: "ログイン" })).toBeVisible();
  await attacker.close();
});

test("他の端末からログアウト ends the login in a second browser and keeps this one", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("devices");
  await createUserInDb(email, PASSWORD);
  const second = await otherBrowser(browser);
  const secondPage = await second.newPage();
  await logInAt(secondPage, email);
  await logInAt(page, email);

  await page.goto("/account");
  const devices = page.getByRole("region", { name: "ログイン中の端末" });
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  await expect(devices.getByRole("listitem").first()).toContainText("この端末");
  await devices.getByRole("button", { name: "他の端末からログアウト" }).click();

  await expect(page.getByText("他の端末からログアウトしました")).toBeVisible();
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  await expect(devices.getByRole("button", { name: "他の端末からログアウト" })).toBeDisabled();

  await secondPage.goto("/account");
  await expect(secondPage).toHaveURL(/\/login\?redirectTo=\/account$/);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "アカウント" })).toBeVisible();
  await second.close();
});
