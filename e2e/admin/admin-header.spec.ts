import { expect, test } from "@playwright/test";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

// Where the links sit and that they cover no control, at each width: admin-header-layout.spec.ts.
test("the admin's own links in the header lead where they say", async ({ page, context, baseURL }) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("admin-header-links"));
  await page.goto("/admin/sales");
  await page
    .getByRole("navigation", { name: "その他の管理機能" })
    .getByRole("link", { name: "セキュリティ監視" })
    .click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await page
    .getByRole("navigation", { name: "その他の管理機能" })
    .getByRole("link", { name: "2段階認証の設定" })
    .click();
  await expect(page).toHaveURL(/\/admin\/two-factor-setup$/);
  await page
    .getByRole("navigation", { name: "その他の管理機能" })
    .getByRole("link", { name: "ショップを表示" })
    .click();
  await expect(page).toHaveURL(/\/$/);
});

test("on a phone the tab bar starts at the current tab and its edges fade while more tabs lie beyond", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("admin-tabs"));
  await page.setViewportSize({ width: 390, height: 844 });
  const bar = page.getByRole("navigation", { name: "管理メニュー" });
  const reach = () =>
    bar.evaluate((nav) => ({
      scrollLeft: nav.scrollLeft,
      wider: nav.scrollWidth > nav.clientWidth,
      // The fades (tab-fades): sticky at the bar's edges, over the tabs that run past them.
      fades: ["::before", "::after"].every((edge) => {
        const style = getComputedStyle(nav.querySelector("ul")!, edge);
        return style.position === "sticky" && style.backgroundImage.includes("linear-gradient");
      }),
    }));
  /** The current tab lies on the screen, clear of the 1.5rem fades at its edges. */
  const clearOfTheFades = async (name: string | RegExp) => {
    const current = bar.getByRole("link", { name });
    await expect(current).toHaveAttribute("aria-current", "page");
    const box = (await current.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(24);
    expect(box.x + box.width).toBeLessThanOrEqual(390 - 24);
  };

  // A tab past the screen's edge: scrolled into the bar's view, with or without JavaScript.
  await page.goto("/admin/stray-payments");
  await expect.poll(async () => (await reach()).scrollLeft).toBeGreaterThan(0);
  await clearOfTheFades(/注文にならなかった決済/);
  expect(await reach()).toMatchObject({ wider: true, fades: true });
  await page.goto("/admin/coupons");
  await clearOfTheFades("クーポン管理");

  // The first tab: the bar at its start, the tabs beyond the right edge faded.
  await bar.getByRole("link", { name: "大会管理" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await clearOfTheFades("大会管理");
  expect(await reach()).toMatchObject({ scrollLeft: 0, wider: true, fades: true });
});
