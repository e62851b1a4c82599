import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { jsEnabled } from "./helpers";

const VISUAL_DIR = path.resolve(import.meta.dirname, "../../.tmp/visual");

/**
 * The page as a phone (390 px) and a desktop show it, into .tmp/visual/<name>-phone|desktop.png
 * for a look, and nothing wider than the screen. JS on only: the same page is drawn without it.
 */
export async function photograph(page: Page, name: string) {
  if (!jsEnabled()) return;
  fs.mkdirSync(VISUAL_DIR, { recursive: true });
  const size = page.viewportSize();
  for (const [label, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(VISUAL_DIR, `${name}-${label}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} on a ${label} is wider than the screen`).toBeLessThanOrEqual(0);
  }
  if (size) await page.setViewportSize(size);
}
