import { expect, test } from "@playwright/test";

test("the home page starts with a banner image whose space is kept before it loads", async ({
  page,
  request,
}) => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    // Its box has the banner's shape even while the image is still on its way.
    await page.route(/home-banner.*\.svg$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto("/", { waitUntil: "commit" });
    const banner = page.getByRole("img", {
      name: "スポットライトに照らされた、幕の開いたステージのイラスト",
    });
    await expect(banner).toBeAttached();
    await expect(banner).toHaveAttribute("width", "1600");
    await expect(banner).toHaveAttribute("height", "600");
    // Measured once the stylesheet applies (browsers paint nothing before it; a box measured
    // earlier is the unstyled image at its attributes' size). Polled from here, not with
    // waitForFunction: that polls on the page's animation frames, which never come with
    // JavaScript off, so it hung whenever the stylesheet was not there at its first look.
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every(
            (link) => link.sheet,
          ),
        ),
      )
      .toBe(true);
    const early = await banner.boundingBox();
    expect(early?.height).toBeGreaterThan(90);
    await expect(banner).toHaveJSProperty("complete", true);
    await expect
      .poll(() => banner.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await banner.boundingBox()).toEqual(early);
    await page.unroute(/home-banner.*\.svg$/);

    // The heading is on the page, below the image rather than on it.
    const heading = page.getByRole("heading", { level: 1, name: /大切な舞台を/ });
    const headingBox = await heading.boundingBox();
    expect(headingBox && early && headingBox.y >= early.y + early.height).toBe(true);
  }

  // The drawing is small, and without a configured photo there are no photo widths to serve.
  const src = await page.getByRole("img", { name: /ステージのイラスト/ }).getAttribute("src");
  const drawing = await request.get(src ?? "");
  expect(drawing.status()).toBe(200);
  expect(drawing.headers()["content-type"]).toContain("image/svg+xml");
  expect((await drawing.body()).length).toBeLessThan(20_000);
  expect((await request.get("/home-banner/640.webp")).status()).toBe(404);
});
