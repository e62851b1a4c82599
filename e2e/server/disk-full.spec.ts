import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { CONTEST, fillItem } from "../support/flows";
import { freePort } from "../../scripts/bench/lib.mjs";

/**
 * *Disk full* (decision 0042): a shop of its own whose database is on a 32 MiB tmpfs, filled to the
 * last byte while a parent is on the order form. Her post gets the 503 page that says why (with
 * JavaScript: the `.data` answer drawn by the page's boundary), never 500; with room again the
 * order goes through. Mounting needs root (the CI machines have it); elsewhere the test is skipped
 * with the reason.
 */

const root = path.resolve(import.meta.dirname, "../..");
const OUT_OF_SPACE =
  "ただいまサーバーの空き容量が不足しているため、ご注文やお手続きを受け付けられません。時間をおいて再度お試しください。";

/** A tmpfs of `size` at a new folder, or why none could be mounted. */
function mountSmallDisk(size: string): { folder: string } | { why: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "disk-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", folder], { stdio: "pipe" });
    return { folder };
  } catch (error) {
    return { why: (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error) };
  }
}

/** Writes a filler file until the disk has not a byte left. */
function fillToTheLastByte(folder: string) {
  const handle = fs.openSync(path.join(folder, "filler"), "a");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(handle, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    for (;;)
      try {
        fs.writeSync(handle, block, 0, 512);
      } catch {
        break;
      }
  } finally {
    fs.closeSync(handle);
  }
}

test("disk full: the order form's post answers 503 with the page that says why, and the order goes through once there is room", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const disk = mountSmallDisk("32m");
  test.skip("why" in disk, `no tmpfs could be mounted here: ${"why" in disk ? disk.why : ""}`);
  if (!("folder" in disk)) return;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "disk-full-work-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production" as const,
    PORT: String(port),
    SITE_URL: base,
    DATABASE_PATH: path.join(disk.folder, "shop.db"),
    MEDIA_DIR: path.join(work, "media"),
    MAIL_DIR: path.join(work, "mail"),
    BACKUP_DIR: path.join(work, "backups"),
    BACKUP_INTERVAL_MINUTES: "0",
    SESSION_SECRET: "disk-full-session-secret-0123456789abcdefghij",
    ENCRYPTION_KEY: "disk-full-encryption-key-0123456789abcdefghij",
    PAYMENT_PROVIDER: "test",
  };
  let server: ChildProcess | undefined;
  try {
    execFileSync("npx", ["tsx", "scripts/seed.ts"], { cwd: root, env, stdio: "pipe" });
    server = spawn(process.execPath, ["server-build/index.js"], { cwd: root, env, stdio: "ignore" });
    await expect
      .poll(
        () =>
          fetch(`${base}/healthz`).then(
            (answer) => answer.status,
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);

    const orderForm = async () => {
      await page.goto(`${base}/`);
      await page
        .getByRole("listitem")
        .filter({ hasText: CONTEST })
        .getByRole("link", { name: "注文を開始する" })
        .click();
      await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
    };
    const post = () =>
      Promise.all([
        page.waitForResponse((answer) => answer.request().method() === "POST"),
        page.getByRole("button", { name: "注文内容の確認へ進む" }).click(),
      ]).then(([answer]) => answer);

    await orderForm();
    fillToTheLastByte(disk.folder);
    const refused = await post();
    expect(refused.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "ただいまご利用いただけません" })).toBeVisible();
    await expect(page.getByText(OUT_OF_SPACE)).toBeVisible();
    // /healthz still says the process is alive; /readyz says why it is not ready.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([
      503,
      expect.stringContaining("disk below its reserve"),
    ]);

    fs.rmSync(path.join(disk.folder, "filler"));
    await orderForm();
    await post();
    await expect(page).toHaveURL(/\/order-confirmation$/);
  } finally {
    server?.kill("SIGTERM");
    if (server && server.exitCode === null) await new Promise((resolve) => server?.once("exit", resolve));
    execFileSync("umount", ["-l", disk.folder]);
    fs.rmSync(work, { recursive: true, force: true });
  }
});
