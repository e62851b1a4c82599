import { expect, type Page } from "@playwright/test";

/** A contest of the test's own, made through 新規大会追加 (with and without JS); returns its edit page's path. */
export async function createContest(page: Page, name: string): Promise<string> {
  await page.goto("/admin/contests/new");
  await page.getByLabel("大会名").fill(name);
  await page.getByRole("button", { name: "追加" }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await page.getByRole("link", { name: `${name}を編集` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname;
}
