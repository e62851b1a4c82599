import { expect, test } from "@playwright/test";
import { insertOrder } from "../support/account-helpers";
import { withDb } from "../support/db";
import { uniqueEmail } from "../support/helpers";

/**
 * Regressions on the status page (注文状況): its お問い合わせ link carries the order
 * number as the download page's does, and on a 390 px phone each line's price stays on the line
 * of its name instead of wrapping under it.
 */
test("the status page's お問い合わせ carries the order number, and each price keeps to its name's line at 390 and 1280 px", async ({
  page,
}, testInfo) => {
  // A paid order of two videos as the checkout stores it (the way from the checkout to this page
  // is order-status.spec.ts's): the page is opened by its token, as the confirmation mail links it.
  const orderNumber = insertOrder(uniqueEmail("status-layout"), [
    { category: "キッズ部門", athleteNumber: 1, style: "縦", price: 3000 },
    { category: "ジュニア部門", athleteNumber: 2, style: "横", price: 5000 },
  ]);
  const token = withDb(
    (db) =>
      (
        db.prepare("select status_token from orders where order_number = ?").get(orderNumber) as {
          status_token: string;
        }
      ).status_token,
  );
  await page.goto(`/orders/${token}`);
  await expect(page.getByRole("heading", { level: 1, name: "注文状況" })).toBeVisible();

  const contact = page.getByRole("main").getByRole("link", { name: "お問い合わせ" });
  await expect(contact).toHaveAttribute("href", `/contact?order=${orderNumber}`);

  const lines = page.getByRole("region", { name: "ご注文内容" }).getByRole("listitem");
  await expect(lines).toHaveCount(3); // two videos and the total
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    for (const n of [0, 1]) {
      const line = lines.nth(n);
      const name = await line.locator("p").first().boundingBox();
      const price = await line.getByText(/円/).boundingBox();
      expect(name && price, `line ${n + 1}'s boxes`).toBeTruthy();
      if (!name || !price) return;
      // Beside the name (to its right, its top within the name's first line), not under it.
      expect(price.x, `line ${n + 1}'s price at ${viewport.width}px`).toBeGreaterThanOrEqual(
        name.x + name.width,
      );
      expect(Math.abs(price.y - name.y), `line ${n + 1}'s price at ${viewport.width}px`).toBeLessThan(
        price.height,
      );
    }
    await lines.first().scrollIntoViewIfNeeded();
    await page.screenshot({
      path: testInfo.outputPath(`order-status-${viewport.width}.png`),
      fullPage: true,
    });
  }

  // The link is followed as a visitor would: the form arrives with the number filled in.
  await contact.click();
  await expect(page).toHaveURL(`/contact?order=${orderNumber}`);
  await expect(page.getByRole("main")).toContainText(orderNumber);
});
