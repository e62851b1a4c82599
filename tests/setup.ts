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
