import { execFileSync } from "node:child_process";
import os from "node:os";
import { defineConfig } from "@playwright/test";

// Free ports are picked once, in the main process; workers inherit them through the environment.
function freePort(): string {
  return execFileSync(
    process.execPath,
    [
      "-e",
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ],
    {
      encoding: "utf8",
    },
  );
}
process.env.E2E_PORT ??= freePort();
process.env.E2E_SMTP_PORT ??= freePort();
// The second shop, whose files are in object storage (the fake S3 of tests/helpers/s3-fake), with its own SMTP server.
process.env.E2E_S3_PORT ??= freePort();
process.env.E2E_S3_SMTP_PORT ??= freePort();
process.env.E2E_S3_BUCKET_PORT ??= freePort();
// The AWS SDK's notice that its 2027 releases need Node 22 (README, "Deploying"), said once there.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
const objectStorageURL = `http://127.0.0.1:${process.env.E2E_S3_PORT}`;
/** What runs against object storage too (decision 0019): the chunked uploads, 納品 and downloads, the kill-and-resume upload. */
const OBJECT_STORAGE_SPECS = [
  "**/admin/contests/contest-content.spec.ts",
  "**/admin/orders/batch-delivery.spec.ts",
  "**/admin/orders/delivery.spec.ts",
  "**/storefront/download-versions.spec.ts",
  "**/server/upload-resume.spec.ts",
];

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  // Two at least, as CI runs it: every test makes its own users, contests and addresses, and much
  // of a test is waiting (mails, background jobs, the server), so on a 2-core machine Playwright's
  // default (half the cores: one) leaves a core idle. A bigger machine keeps half its cores.
  workers: process.env.CI ? 2 : Math.max(2, Math.floor(os.cpus().length / 2)),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // What needs JavaScript (tagged @js-only), and HTTP-only specs that one run covers, run in "js" only:
    // left out here rather than skipped, so every test that is listed also runs.
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      grepInvert: /@js-only/,
      testIgnore: [
        "**/admin/admin-access.spec.ts",
        // The header's layout: the same page with JavaScript off (the file says why).
        "**/admin/admin-header-layout.spec.ts",
        "**/server/upload-resume.spec.ts",
        "**/server/kept-alive-connections.spec.ts",
        "**/server/list-index-bomb.spec.ts",
        "**/server/server-edge.spec.ts",
        "**/server/stop-together.spec.ts",
      ],
    },
    // A test of those specs tagged @no-stored-file (a delivery by URL) stores and reads no file of
    // the shop: the bucket has nothing to add to it, so it is left out here, not skipped.
    {
      name: "js-s3",
      testMatch: OBJECT_STORAGE_SPECS,
      use: { javaScriptEnabled: true, baseURL: objectStorageURL },
      grepInvert: /@no-stored-file/,
    },
    {
      name: "no-js-s3",
      testMatch: OBJECT_STORAGE_SPECS,
      use: { javaScriptEnabled: false, baseURL: objectStorageURL },
      grepInvert: [/@js-only/, /@no-stored-file/],
      testIgnore: ["**/server/upload-resume.spec.ts"],
    },
  ],
  webServer: [
    {
      command: "node e2e/support/server.mjs",
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "node e2e/support/server.mjs",
      url: `${objectStorageURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        E2E_STORAGE: "s3",
        E2E_PORT: String(process.env.E2E_S3_PORT),
        E2E_SMTP_PORT: String(process.env.E2E_S3_SMTP_PORT),
      },
    },
  ],
});
