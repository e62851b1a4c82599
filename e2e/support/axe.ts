import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";
import { jsEnabled } from "./helpers";

/** axe-core's browser bundle, evaluated in the page (a script tag would be refused by the CSP). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export type AxeViolation = { id: string; impact: string | null; targets: string[] };

/**
 * What axe finds wrong on the page as it stands (every rule unless `options` narrows them). Without
 * JavaScript the page's timers never fire and axe never ends, so the page's markup as the server
 * sent it is checked in a second page that runs scripts, at the same address (its styles load)
 * and without the shop's own scripts, as a browser without JavaScript has it.
 */
export async function axeViolations(page: Page, options: RunOptions = {}): Promise<AxeViolation[]> {
  if (jsEnabled()) return runAxe(page, options);
  const browser = page.context().browser();
  if (!browser) throw new Error("axe needs the page's browser");
  const markup = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.route(page.url(), (route) =>
      route.fulfill({ contentType: "text/html; charset=utf-8", body: markup }),
    );
    await copy.goto(page.url());
    return await runAxe(copy, options);
  } finally {
    await context.close();
  }
}

async function runAxe(page: Page, options: RunOptions): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (runOptions) =>
      (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe.run(
        document,
        runOptions,
      ),
    options,
  );
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}
