// Started by Playwright: a real SMTP server on loopback that stores each received mail
// as JSON for the tests to read, a fresh database with the demo data, and the
// production build served by the shop's own server entry (server-build/index.js). With E2E_STORAGE=s3 (the …-s3 projects) a second
// server of its own keeps its files in object storage: a local s3rver on E2E_S3_BUCKET_PORT.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

const root = path.resolve(import.meta.dirname, "../..");
const objectStorage = process.env.E2E_STORAGE === "s3";
const work = path.join(root, ".tmp", objectStorage ? "e2e-s3" : "e2e");
const mailDir = path.join(work, "received-mail");
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(mailDir, { recursive: true });

let mailCount = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", async () => {
      try {
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        const record = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: mail.subject ?? "",
          text: mail.text ?? "",
          html: mail.html ?? "",
          receivedAt: Date.now(),
        };
        const file = path.join(mailDir, `${Date.now()}-${String(++mailCount).padStart(5, "0")}.json`);
        fs.writeFileSync(`${file}.part`, JSON.stringify(record));
        fs.renameSync(`${file}.part`, file);
        callback();
      } catch (error) {
        callback(error);
      }
    });
  },
});
const smtpPort = Number(process.env.E2E_SMTP_PORT);
await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

/** The bucket (e2e/support/storage.ts reads what the shop stored in it). */
let bucket = null;
if (objectStorage) {
  // The tests' fake S3 (tests/helpers/s3-fake), plain JavaScript so that node runs it here.
  const { startFakeS3 } = await import("../../tests/helpers/s3-fake/index.mjs");
  bucket = await startFakeS3({
    port: Number(process.env.E2E_S3_BUCKET_PORT),
    directory: path.join(work, "bucket"),
    buckets: ["shop-e2e"],
  });
}

const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: process.env.E2E_PORT,
  SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT}`,
  DATABASE_PATH: path.join(work, "shop.db"),
  MEDIA_DIR: path.join(work, "media"),
  // The scheduled snapshots run as in production (to the bucket in S3 mode).
  BACKUP_DIR: path.join(work, "backups"),
  SESSION_SECRET: "e2e-session-secret-0123456789abcdefghijklmnop",
  ENCRYPTION_KEY: "e2e-encryption-key-0123456789abcdefghijklmnop",
  // The built-in test payments (テストモード), said as production requires.
  PAYMENT_PROVIDER: "test",
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: "shop@example.jp",
  ENABLE_TEST_HOOKS: "true",
  // As behind one proxy: specs that need their own per-origin buckets send X-Forwarded-For.
  TRUST_PROXY: "1",
  // e2e/storefront/render-cache.spec.ts reads whether a page was drawn or served from the cache.
  DEBUG_RENDER_CACHE: "true",
  // Small chunks, so the small files of the upload tests span several of them.
  UPLOAD_CHUNK_BYTES: "65536",
  // A registered seller: receipts are 適格簡易請求書 with this number (e2e/storefront/receipt.spec.ts).
  SELLER_INVOICE_NUMBER: "T1234567890123",
  ...(objectStorage && {
    STORAGE_URL: "s3://shop-e2e/media",
    S3_ENDPOINT: `http://127.0.0.1:${process.env.E2E_S3_BUCKET_PORT}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
    // One S3 part per chunk: 5 MiB is the least S3 takes (decision 0019).
    UPLOAD_CHUNK_BYTES: String(5 * 1024 * 1024),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  }),
};
// Not execSync: the seed stores covers in the bucket, which this process's s3rver must answer meanwhile.
await new Promise((resolve, reject) =>
  spawn("npx", ["tsx", "scripts/seed.ts"], { cwd: root, env, stdio: "inherit" }).on("exit", (code) =>
    code === 0 ? resolve() : reject(new Error(`seed failed (${code})`)),
  ),
);
const server = spawn(process.execPath, ["server-build/index.js"], { cwd: root, env, stdio: "inherit" });
const stop = () => {
  server.kill("SIGTERM");
  void bucket?.close();
  smtp.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 1));
