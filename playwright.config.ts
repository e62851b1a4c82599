import { execFileSync } from "node:child_process";
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

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
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
        "**/admin-access.spec.ts",
        "**/upload-resume.spec.ts",
        "**/kept-alive-connections.spec.ts",
      ],
    },
  ],
  webServer: {
    command: "node e2e/server.mjs",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
