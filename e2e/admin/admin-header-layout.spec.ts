import { expect, test, type Page } from "@playwright/test";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/**
 * The header's layout, checked in the "js" project only (playwright.config.ts leaves this file out
 * of "no-js"): the header is drawn by the server the same with JavaScript off, and what JavaScript
 * adds or takes away on these pages (the bulk bar's count, the upload queue, the price rows) lies
 * in the page's flow below it, none of it fixed or sticky, so no control can come over the links
 * in one run and not the other. That the links are there and work with JavaScript off is
 * admin-header.spec.ts's, which runs in both.
 */
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
});
