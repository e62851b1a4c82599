import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { startFakeS3, type FakeS3 } from "../tests/helpers/s3-fake/index.mjs";

// An HTTP test against a server of its own (LiteFS simulated by a folder): run in the js project only (playwright.config.ts).

const root = path.resolve(import.meta.dirname, "..");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let child: ChildProcess | null = null;
let bucket: FakeS3 | null = null;
test.afterEach(async () => {
  child?.kill("SIGTERM");
  child = null;
  await bucket?.close();
  bucket = null;
});

test("a LiteFS replica answers requests that write with fly-replay to the primary before anything is written; the primary serves them", async ({
  request,
  playwright,
}) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "litefs-e2e-"));
  const litefs = path.join(work, "litefs");
  fs.mkdirSync(litefs);
  const dbFile = path.join(litefs, "shop.db");
  // With LiteFS the files are in object storage (the machines share no folder): the tests' fake S3.
  bucket = await startFakeS3({ directory: path.join(work, "bucket"), buckets: ["litefs-e2e"] });
  const bucketPort = bucket.port;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ["server-build/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      SITE_URL: base,
      DATABASE_PATH: dbFile,
      MEDIA_DIR: path.join(work, "media"),
      MAIL_DIR: path.join(work, "mail"),
      SESSION_SECRET: "litefs-e2e-session-secret-0123456789abcdef",
      ENCRYPTION_KEY: "litefs-e2e-encryption-key-0123456789abcdef",
      PAYMENT_PROVIDER: "test",
      ENABLE_TEST_HOOKS: "true",
      LITEFS_DIR: litefs,
      STORAGE_URL: "s3://litefs-e2e/media",
      S3_ENDPOINT: `http://127.0.0.1:${bucketPort}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "LITEFSE2EKEY",
      S3_SECRET_ACCESS_KEY: "litefs-e2e-secret",
      S3_FORCE_PATH_STYLE: "true",
    },
    stdio: "ignore",
  });
  await expect
    .poll(
      () =>
        request.get(`${base}/healthz`).then(
          (r) => r.status(),
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  const sessions = () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      return (db.prepare("select count(*) as n from sessions").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const login = () =>
    request.post(`${base}/login`, {
      form: { email: "nobody@example.jp", password: "Wrong-Password-2025" },
      maxRedirects: 0,
    });
  // The toast hook writes a new session in a GET loader (as a renewed session or a counted download
  // does), for a visitor without cookies.
  const toast = async () => {
    const visitor = await playwright.request.newContext();
    try {
      const answer = await visitor.get(`${base}/test-hooks/toast`, { maxRedirects: 0 });
      return { status: answer.status(), headers: answer.headers() };
    } finally {
      await visitor.dispose();
    }
  };

  // The primary (no .primary file): migrated at start-up, and it writes.
  expect((await toast()).status).toBe(302);
  expect(sessions()).toBe(1);
  expect((await login()).headers()["fly-replay"]).toBeUndefined();

  // Demoted: LiteFS writes the primary's machine id into .primary.
  fs.writeFileSync(path.join(litefs, ".primary"), "148e21ea7e0e89\n");
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const before = sessions();
  const posted = await login();
  expect(posted.status()).toBe(409);
  expect(posted.headers()["fly-replay"]).toBe("instance=148e21ea7e0e89");
  const replayed = await toast();
  expect(replayed.status).toBe(409);
  expect(replayed.headers["fly-replay"]).toBe("instance=148e21ea7e0e89");
  expect(replayed.headers["set-cookie"]).toBeUndefined();
  expect(sessions()).toBe(before);
  // Reading needs no primary.
  const home = await request.get(`${base}/`);
  expect(home.status()).toBe(200);
  expect(home.headers()["fly-replay"]).toBeUndefined();

  // Promoted again: it writes again.
  fs.rmSync(path.join(litefs, ".primary"));
  await new Promise((resolve) => setTimeout(resolve, 1100));
  expect((await toast()).status).toBe(302);
  expect(sessions()).toBe(before + 1);
  fs.rmSync(work, { recursive: true, force: true });
});
