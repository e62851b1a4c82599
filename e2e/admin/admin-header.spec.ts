import { expect, test, type Page } from "@playwright/test";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

const ACCOUNT_LINKS = ["セキュリティ監視", "2段階認証の設定", "ショップを表示"];
// A phone, the header's breakpoint (md) and a laptop: wider screens lay the header out as 1280 does.
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
];
const PAGES = [
  "/admin",
  "/admin/contest/1",
  "/admin/contest/1/content",
  "/admin/contest/1/settings",
  "/admin/orders",
  "/admin/sales",
  "/admin/users",
  "/admin/security",
];

/**
 * Every overlap, at the current scroll position, between the header's links and any other
 * control of the page (viewport boxes, so a fixed element is caught where it floats).
 */
function overlaps(page: Page, names: string[]) {
  return page.evaluate((names) => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
    };
    const links = [...document.querySelectorAll("a")].filter(
      (link) => names.includes(link.textContent?.trim() ?? "") && visible(link),
    );
    const controls = [
      ...document.querySelectorAll("a, button, input, select, textarea, summary, canvas, [role=button]"),
    ].filter(
      (control) => visible(control) && !links.some((link) => link === control || link.contains(control)),
    );
    const found: string[] = [];
    for (const link of links) {
      const a = link.getBoundingClientRect();
      for (const control of controls) {
        if (control.contains(link)) continue;
        const b = control.getBoundingClientRect();
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        if (!apart) found.push(`${link.textContent?.trim()} × ${control.outerHTML.slice(0, 80)}`);
      }
    }
    return { linkCount: links.length, found };
  }, names);
}

test("the admin's own links sit in the header and cover no control at any width", async ({
  page,
  context,
  baseURL,
}) => {
  test.slow();
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("admin-header"));
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const path of PAGES) {
      await page.goto(path);
      const header = page.getByRole("navigation", { name: "その他の管理機能" });
      for (const name of ACCOUNT_LINKS) await expect(header.getByRole("link", { name })).toBeVisible();
      // At the top and at the end of the page (a fixed element floats over both alike).
      for (const at of [0, 1]) {
        await page.evaluate((at) => window.scrollTo(0, at * document.documentElement.scrollHeight), at);
        const { linkCount, found } = await overlaps(page, ACCOUNT_LINKS);
        if (at === 0) expect(linkCount, `${path} at ${viewport.width}px`).toBe(3);
        expect(found, `${path} at ${viewport.width}px, scrolled ${at * 100}%`).toEqual([]);
      }
    }
    // A click on the middle of 「選択した選手を削除」 reaches that button, not a link over it.
    await page.goto("/admin/contest/1");
    const remove = page.getByRole("button", { name: "選択した選手を削除" });
    await remove.scrollIntoViewIfNeeded();
    const box = await remove.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest("button")?.textContent?.trim() ?? null,
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(hit, `at ${viewport.width}px`).toBe("選択した選手を削除");
  }
  // The links lead where they say.
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
