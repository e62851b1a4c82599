// Each test file gets its own SQLite file and media folder under the system temp dir,
// set before any app module reads its configuration.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, vi } from "vitest";
// The clock reads no configuration, so it may load before the variables below are set.
import { setClock } from "~/server/core/clock.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
process.env.DATABASE_PATH = path.join(dir, "shop.db");
process.env.MEDIA_DIR = path.join(dir, "media");
process.env.MAIL_DIR = path.join(dir, "mail");
process.env.BACKUP_DIR = path.join(dir, "backups");
process.env.NODE_ENV = "test";
// Said, as production requires (withStripeShop switches a file to Stripe).
process.env.PAYMENT_PROVIDER = "test";
// As deployed behind one proxy. The app reads the caller from X-Shop-Client-Address, which the
// server's edge sets in every mode; app-level tests set it themselves (tests/helpers/accounts.ts).
process.env.TRUST_PROXY = "1";
// The AWS SDK's notice that its 2027 releases need Node 22 (README, "Deploying"), said once there.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

// Every test starts on the real clock, whatever the one before it set.
afterEach(() => setClock(null));

// vi.waitFor waits for a mail or a background job, ending as soon as it is there. Its default of a
// second is short on a 2-core machine running two files at once (vitest.config.ts): 10 s unless a
// test says otherwise, as Playwright's expect waits.
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitFor(
    callback,
    typeof options === "number" ? options : { timeout: 10_000, ...options },
  )) as typeof vi.waitFor;

// The "s3" project (vitest.config.ts): stored files go to the run's fake S3, under a prefix of this file's own.
if (process.env.SHOP_TEST_STORAGE === "s3") {
  const { inject } = await import("vitest");
  const { s3Environment } = await import("./helpers/s3-server");
  Object.assign(process.env, s3Environment(inject("s3Port"), path.basename(dir)));
}
