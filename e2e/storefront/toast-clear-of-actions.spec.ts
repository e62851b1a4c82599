import { expect, test, type Locator, type Page } from "@playwright/test";
import { checkoutTwoVideosUntilPayment } from "../support/flows";
import { uniqueEmail } from "../support/helpers";

/**
 * Regression: on a phone the toast (5 s with JavaScript, until closed without) sat over the
 * button at the bottom of the screen, the pay button on /payment and 「ホームへ戻る」 after ordering.
 */

/** Whether a tap at the middle of the button lands on it, not on the toast or anything else over it. */
async function takesATap(page: Page, button: Locator): Promise<boolean> {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  if (!box) return false;
  const handle = await button.elementHandle();
  return page.evaluate(
    ({ x, y, element }) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && !!element && (element === hit || element.contains(hit));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2, element: handle },
  );
}

/** The page's controls on the screen (the header's, the page's, the footer's) that a tap at their middle misses. */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, summary")]
      // The toast's own close button, and the visually hidden skip link, are not the page's actions.
      .filter((control) => !control.closest(".toast-life"))
      // Not the links of a closed menu (a closed <details> keeps its content's boxes, unrendered).
      .filter((control) => control.checkVisibility({ visibilityProperty: true }))
      .filter((control) => {
        const box = control.getBoundingClientRect();
        const x = box.x + box.width / 2;
        const y = box.y + box.height / 2;
        if (box.width < 2 || box.height < 2 || y < 0 || y > innerHeight || x < 0 || x > innerWidth)
          return false;
        const hit = document.elementFromPoint(x, y);
        return !hit || !(control === hit || control.contains(hit));
      })
      .map(
        (control) =>
          control.textContent?.trim() ||
          control.getAttribute("aria-label") ||
          ("labels" in control && (control.labels as NodeListOf<HTMLLabelElement>)[0]?.textContent) ||
          control.tagName,
      ),
  );
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width}×${viewport.height} the checkout's toasts leave the pay button and 「ホームへ戻る」 free`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await checkoutTwoVideosUntilPayment(page, uniqueEmail("toast-actions"), "通知 太郎");

    const verified = page.getByRole("status").filter({ hasText: "認証が完了しました" });
    await expect(verified).toBeVisible();
    const pay = page.getByRole("button", { name: /を支払う/ });
    // Each check runs while its toast is on the screen (asserted after: its 5 s had not run out).
    const coveredOnPayment = await coveredControls(page);
    const payFree = await takesATap(page, pay);
    await page.screenshot({ path: testInfo.outputPath(`payment-${viewport.width}.png`) });
    await expect(verified).toBeVisible();
    expect(coveredOnPayment, "/payment's controls under the toast").toEqual([]);
    expect(payFree, "the pay button under the toast").toBe(true);

    await page.getByLabel("カード名義").fill("TARO");
    await page.getByLabel("カード番号").fill("4242424242424242");
    await page.getByLabel("有効期限（MM/YY）").fill("12/39");
    await page.getByLabel("セキュリティコード").fill("123");
    await pay.click();
    await expect(page).toHaveURL(/\/payment-complete$/);
    const thanks = page.getByRole("status").filter({ hasText: "ご注文ありがとうございます" });
    await expect(thanks).toBeVisible();
    const coveredOnComplete = await coveredControls(page);
    const homeFree = await takesATap(page, page.getByRole("link", { name: "ホームへ戻る" }));
    await page.screenshot({ path: testInfo.outputPath(`payment-complete-${viewport.width}.png`) });
    await expect(thanks).toBeVisible();
    expect(coveredOnComplete, "/payment-complete's controls under the toast").toEqual([]);
    expect(homeFree, "「ホームへ戻る」 under the toast").toBe(true);
  });
}
