import { expect, test } from "@playwright/test";
import { buyTwoVideos } from "../support/flows";
import { uniqueEmail } from "../support/helpers";

/**
 * Regressions on the status page (注文状況): its お問い合わせ link carries the order
 * number as the download page's does, and on a 390 px phone each line's price stays on the line
 * of its name instead of wrapping under it.
 */
test("the status page's お問い合わせ carries the order number, and each price keeps to its name's line at 390 and 1280 px", async ({
  page,
}, testInfo) => {
  const orderNumber = await buyTwoVideos(page, uniqueEmail("status-layout"), "状況 花子");
  await page.getByRole("link", { name: "注文状況を確認する" }).click();
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
