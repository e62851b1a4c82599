import { expect, type Page } from "@playwright/test";

/** Issues an API token on the security page's APIトークン tab (as an admin would) and answers it. */
export async function issueApiToken(
  page: Page,
  options: { name: string; scope: "read" | "write"; lifetime?: string },
): Promise<string> {
  await page.goto("/admin/security?tab=tokens");
  await page.getByLabel("名前（用途）").fill(options.name);
  await page.getByLabel(options.scope === "write" ? /^読み書き/ : /^読み取り専用/).check();
  await page.getByLabel("有効期限").selectOption(options.lifetime ?? "90");
  await page.getByRole("button", { name: "トークンを発行" }).click();
  await expect(page.getByText(`トークン「${options.name}」を発行しました`)).toBeVisible();
  const token = await page.getByLabel("発行したトークン").inputValue();
  expect(token).toMatch(/^cvs_[\w-]{43}$/);
  return token;
}
