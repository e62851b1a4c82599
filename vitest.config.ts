import os from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/**
 * The storage tests, which also run against object storage (decision 0019), and the media tests
 * whose ffprobe and ffmpeg read a stored video where it lies (a signed URL there, decision 0039).
 */
const STORAGE_TESTS = [
  "tests/server/files/storage*.test.ts",
  "tests/server/backups/storage*.test.ts",
  "tests/server/media/media-crafted-inputs.test.ts",
];

/**
 * Tests that only object storage can show: a stored video whose read never ends is a bucket's
 * answer (a local file always ends), and the Cache-Control a bucket keeps with each object. They
 * run in the "s3" project alone, never skipped elsewhere.
 */
const OBJECT_STORAGE_ONLY_TESTS = [
  "tests/server/media/media-stalled-job.test.ts",
  "tests/server/files/private-delivery-bucket.test.ts",
];

/**
 * The tests about lockouts, codes, sessions and per-address counts: they hash passwords at a tiny
 * cost (tests/setup-fast-password.ts), as they log in and register many times and hashing cost is
 * not what they check. Every other file, tests/server/auth/password.test.ts among them, hashes for
 * real.
 */
const FAST_PASSWORD_TESTS = [
  "tests/server/accounts/api-accounts.test.ts",
  "tests/server/accounts/password-change.test.ts",
  "tests/server/accounts/password-reset.test.ts",
  "tests/server/accounts/registration.test.ts",
  "tests/server/auth/login/address-limits.test.ts",
  "tests/server/auth/login/api-admin-login.test.ts",
  "tests/server/auth/second-factor/authenticator-setup.test.ts",
  "tests/server/auth/login/login.test.ts",
  "tests/server/auth/codes/mail-caps.test.ts",
  "tests/server/auth/second-factor/second-factor.test.ts",
  "tests/server/checkout/checkout-code-limits.test.ts",
  "tests/server/http/client-ip.test.ts",
  "tests/server/http/sessions.test.ts",
];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Two files at once at least: each has its own database, folders and ports, and many wait
    // (servers, ffmpeg, timers) more than they compute. Vitest's default, a core less than the
    // machine has, runs one at a time on the 2-core machine npm test is measured on.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // expect.poll ends as soon as it holds; a second (the default) is short with two files at once.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      // Every other test, with the stored files in the MEDIA_DIR folder (the default).
      {
        extends: true,
        test: {
          name: "local",
          include: ["tests/**/*.test.ts"],
          exclude: [...FAST_PASSWORD_TESTS, ...OBJECT_STORAGE_ONLY_TESTS],
        },
      },
      // The same, with the cheap password hashing (the setup files add up: tests/setup.ts first).
      {
        extends: true,
        test: {
          name: "fast-password",
          include: FAST_PASSWORD_TESTS,
          setupFiles: ["tests/setup-fast-password.ts"],
        },
      },
      // The storage tests again, against the fake S3 (tests/helpers/s3-fake) the run starts.
      {
        extends: true,
        test: {
          name: "s3",
          include: [...STORAGE_TESTS, ...OBJECT_STORAGE_ONLY_TESTS],
          globalSetup: ["tests/helpers/s3-global-setup.ts"],
          env: { SHOP_TEST_STORAGE: "s3" },
        },
      },
    ],
  },
});
