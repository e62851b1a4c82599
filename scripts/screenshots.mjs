// Screenshots of pages at a phone and a desktop size, for a person to look at.
//   node scripts/screenshots.mjs http://localhost:3000 /path1 /path2 ...   → .tmp/screenshots/*.png
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const [base = "http://localhost:3000", ...paths] = process.argv.slice(2);
const out = path.resolve(".tmp/screenshots");
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
for (const [label, viewport] of [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1280, height: 900 }],
]) {
  const context = await browser.newContext({ viewport, locale: "ja-JP", deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (const p of paths.length ? paths : ["/"]) {
    await page.goto(base + p);
    await page.waitForLoadState("networkidle");
    const name = `${label}${p.replace(/[^a-z0-9]+/gi, "_")}.png`;
    await page.screenshot({ path: path.join(out, name), fullPage: true });
    console.log(path.join(out, name));
  }
  await context.close();
}
await browser.close();
