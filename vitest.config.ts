import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/** The storage tests, which also run against object storage (decision 0019). */
const STORAGE_TESTS = ["tests/storage*.test.ts"];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    projects: [
      // Every test, with the stored files in the MEDIA_DIR folder (the default).
      { extends: true, test: { name: "local", include: ["tests/**/*.test.ts"] } },
      // The storage tests again, against the fake S3 (tests/helpers/s3-fake) the run starts.
      {
        extends: true,
        test: {
          name: "s3",
          include: STORAGE_TESTS,
          globalSetup: ["tests/helpers/s3-global-setup.ts"],
          env: { SHOP_TEST_STORAGE: "s3" },
        },
      },
    ],
  },
});
