// Each test file gets its own SQLite file and media folder under the system temp dir,
// set before any app module reads its configuration.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
process.env.DATABASE_PATH = path.join(dir, "shop.db");
process.env.MEDIA_DIR = path.join(dir, "media");
process.env.MAIL_DIR = path.join(dir, "mail");
process.env.NODE_ENV = "test";
// Said, as production requires (withStripeShop switches a file to Stripe).
process.env.PAYMENT_PROVIDER = "test";
// As deployed behind one proxy: the tests' requests name their client in X-Forwarded-For.
process.env.TRUST_PROXY = "1";
