import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { Router as RemixRouter } from "@remix-run/router";
import { e2eWorkDir } from "./work-dir";

const mailDir = () => path.join(e2eWorkDir(), "received-mail");

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string; receivedAt: number };

/** Every mail the test SMTP server has received for an address, oldest first. */
export function mailsTo(address: string): ReceivedMail[] {
  if (!fs.existsSync(mailDir())) return [];
  return fs
    .readdirSync(mailDir())
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(mailDir(), name), "utf8")) as ReceivedMail)
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** Waits for the n-th mail (1-based) to an address. */
export async function waitForMail(address: string, count = 1): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const mail = mailsTo(address)[count - 1];
  if (!mail) throw new Error("mail vanished");
  return mail;
}

/** A unique address per test run, so parallel tests never read each other's mail. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.jp`;
}

/** Whether this test runs in the project with JavaScript on. */
export function jsEnabled(): boolean {
  return test.info().project.use.javaScriptEnabled !== false;
}

/**
 * Waits until the page's Remix router has nothing in flight: no navigation, no revalidation, no
 * fetcher. A click made before then (say, the next save while the last one's reload of the page
 * data is still on its way) aborts that request, and what its answer carried (the toast) is never
 * shown. `waitForLoadState("networkidle")` is no help here: it is the document's load state,
 * reached long before a client-side submission. With JavaScript off there is no router, and each
 * submission was a page load Playwright already waited for; with it on, a router not found fails.
 */
export async function routerSettled(page: Page) {
  if (!jsEnabled()) return;
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const router = (window as { __remixRouter?: RemixRouter }).__remixRouter;
          if (!router) return false;
          const { navigation, revalidation, fetchers } = router.state;
          return (
            navigation.state === "idle" &&
            revalidation === "idle" &&
            [...fetchers.values()].every((fetcher) => fetcher.state === "idle")
          );
        }),
      { intervals: [50, 100, 250] },
    )
    .toBe(true);
}
