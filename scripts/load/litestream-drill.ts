// npm run test:drill — the restore drill (decision 0041): the shop runs as production runs
// it (scripts/start.sh: Litestream replicating to a bucket, the server its child) while customers
// buy and the admin delivers and refunds; then the server and Litestream are killed with SIGKILL,
// the volume (the database, its WAL, Litestream's own folder, the media) is deleted, and the shop
// is started again on the empty volume. It must restore itself from the replica and have every
// write acknowledged more than a few seconds before the kill: the same order numbers, the links
// in the mails answering (status pages, download pages), the refund recorded. Before the drill it
// measures the replication delay: from a write's answer to the replica holding it. After it, the
// shop is put back as it was just before the refund (`npm run restore -- --replica --at`).
//
//   npx tsx scripts/load/litestream-drill.ts [--orders 6] [--samples 20]
//
// The bucket is the tests' own S3 (tests/helpers/s3-fake) on loopback: this machine reaches no other.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { startFakeS3 } from "../../tests/helpers/s3-fake/index.mjs";
import { ENCRYPTION_KEY, SECRET, adminCookie, freePort } from "../bench/lib.mjs";
import {
  Browser,
  CONFIRMATION,
  Checks,
  DELIVERY,
  prepareShop,
  purchase,
  root,
  StatusLog,
} from "./shop-client";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ORDERS = arg("--orders", 6);
const SAMPLES = arg("--samples", 20);
/** What may be lost: writes answered less than this before the kill (Litestream syncs every second). */
const LOSS_WINDOW_MS = 3_000;

const BUCKET = "drill-backups";
const KEY = { accessKeyId: "DRILLKEY", secretAccessKey: "drill-secret" };
const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "drill-s3-"));
const fake = await startFakeS3({ directory: s3Dir, buckets: [BUCKET] });
const shop = await prepareShop();
// prepareShop's read-only handle would keep the deleted file's inode: the drill opens its own.
shop.db.close();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...shop.env,
  NODE_ENV: "production",
  PORT: String(port),
  SITE_URL: base,
  SESSION_SECRET: SECRET,
  ENCRYPTION_KEY,
  PAYMENT_PROVIDER: "test",
  BACKUP_URL: `s3://${BUCKET}/shop`,
  S3_ENDPOINT: fake.endpoint,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: KEY.accessKeyId,
  S3_SECRET_ACCESS_KEY: KEY.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
  BACKUP_INTERVAL_MINUTES: "0",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};
const s3 = new S3Client({
  region: "us-east-1",
  endpoint: fake.endpoint,
  forcePathStyle: true,
  credentials: KEY,
});
const checks = new Checks();
const log = new StatusLog();
let output = "";

/** The shop as production starts it, in a process group of its own (the kill takes all of it). */
async function startShop(): Promise<{ child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const child = spawn("sh", ["scripts/start.sh"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the shop did not start:\n${output.slice(-3000)}`);
    const up = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { child, readyMs: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the shop did not answer /healthz:\n${output.slice(-3000)}`);
}

/** The replica's objects (Litestream's snapshots and WAL segments). */
async function replicaObjects(): Promise<number> {
  let count = 0;
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "shop/litestream/", ContinuationToken: token }),
    );
    count += page.KeyCount ?? 0;
    token = page.NextContinuationToken;
  } while (token);
  return count;
}

/** Waits until the replica has had no new object for a while (nothing left to sync); its count. */
async function replicaAtRest(quietMs = 1_500): Promise<number> {
  let count = await replicaObjects();
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await replicaObjects();
    if (now !== count) [count, since] = [now, performance.now()];
  }
  return count;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const first = await startShop();
await replicaAtRest();

// The replication delay: one write at a time (a new customer's order-form draft) on a replica at
// rest, from its answer to the first new object in the bucket.
const delays: number[] = [];
const { contestSlug } = await import("../../app/lib/rules/slug");
const contest = shop.fixtures.contests[0]!;
const slug = encodeURIComponent(contestSlug(contest.name));
const athlete = shop.fixtures.athletes.find((candidate) => candidate.contestId === contest.id)!;
const format = shop.fixtures.formats.find((candidate) => candidate.contestId === contest.id)!;
const draft: [string, string][] = [
  ["intent", "add"],
  ["items[0].category", athlete.category],
  ["items[0].athleteId", String(athlete.id)],
  ["items[0].formatId", String(format.id)],
];
for (let i = 0; i < SAMPLES; i++) {
  const before = await replicaAtRest(1_200);
  const browser = new Browser(base, `203.0.113.${10 + (i % 200)}`, log);
  const answer = await browser.request("POST", `/order-form/${slug}`, draft);
  const answeredAt = performance.now();
  checks.check(answer.status < 500, `the draft post answered ${answer.status}`);
  while ((await replicaObjects()) === before && performance.now() - answeredAt < 10_000)
    await new Promise((resolve) => setTimeout(resolve, 20));
  delays.push(performance.now() - answeredAt);
}
delays.sort((a, b) => a - b);

// The day's writes: paid orders, half of them delivered, one refunded.
type Written = {
  email: string;
  orderNumber: string;
  statusUrl: string;
  answeredAt: number;
  downloadUrl?: string;
  refunded?: boolean;
};
const written: Written[] = [];
const admin = new Browser(base, "203.0.113.1", log);
const adminDb = new Database(shop.env.DATABASE_PATH, { readonly: true });
admin.cookie = await adminCookie(shop.env.DATABASE_PATH, shop.fixtures.adminId);
let refundSentAt = new Date(0);
const mailLink = (text: string, pattern: RegExp) => pattern.exec(text)?.[0] ?? "";
for (let n = 0; n < ORDERS; n++) {
  const bought = await purchase(shop, base, log, n, { declined: false });
  const answeredAt = Date.now();
  const order = adminDb
    .prepare("select id, order_number as orderNumber from orders where customer_email = ?")
    .get(bought.email) as { id: number; orderNumber: string };
  let confirmation = shop.mailsTo(bought.email, CONFIRMATION)[0];
  for (let i = 0; !confirmation && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    confirmation = shop.mailsTo(bought.email, CONFIRMATION)[0];
  }
  written.push({
    email: bought.email,
    orderNumber: order.orderNumber,
    statusUrl: mailLink(confirmation?.text ?? "", /http:\/\/127\.0\.0\.1:\d+\/orders\/[\w-]+/),
    answeredAt,
  });
  if (n % 2 === 0) {
    const lines = adminDb.prepare("select id from order_lines where order_id = ?").all(order.id) as {
      id: number;
    }[];
    const form: [string, string][] = [
      ["orderId", String(order.id)],
      ["intent", "deliver"],
      ...lines.map((line): [string, string] => [
        `url-${line.id}`,
        `https://videos.example.jp/${line.id}.mp4`,
      ]),
    ];
    const delivered = await admin.request("POST", "/admin/orders", form);
    checks.check(delivered.status === 303, `delivering ${order.orderNumber} answered ${delivered.status}`);
    written.at(-1)!.answeredAt = Date.now();
  }
  if (n === 1) {
    // A moment apart from the writes before it (in a sync of its own), for the point-in-time restore.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    refundSentAt = new Date();
    const refund = await admin.request("POST", `/admin/orders/${order.orderNumber}`, [
      ["intent", "refund"],
      ["requestKey", crypto.randomUUID()],
      ["amount", "500"],
      ["reason", "ドリル: 一部返金"],
    ]);
    checks.check(refund.status < 400, `refunding ${order.orderNumber} answered ${refund.status}`);
    written.at(-1)!.refunded = true;
    written.at(-1)!.answeredAt = Date.now();
  }
}
for (const entry of written) {
  let delivery = shop.mailsTo(entry.email, DELIVERY)[0];
  for (let i = 0; entry.orderNumber && !delivery && i < 60 && written.indexOf(entry) % 2 === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    delivery = shop.mailsTo(entry.email, DELIVERY)[0];
  }
  if (delivery) entry.downloadUrl = mailLink(delivery.text, /http:\/\/127\.0\.0\.1:\d+\/download\/[\w-]+/);
}
adminDb.close();
// The day goes on a little; then a write answered just before the kill, which may be lost.
await new Promise((resolve) => setTimeout(resolve, LOSS_WINDOW_MS));
const late = await purchase(shop, base, log, ORDERS, { declined: false }).catch(() => null);
const killedAt = Date.now();
process.kill(-first.child.pid!, "SIGKILL");
await new Promise((resolve) => first.child.once("exit", resolve));

// The volume is lost: the database, its WAL, Litestream's folder beside it, the media.
const volume = path.dirname(shop.env.DATABASE_PATH);
fs.rmSync(volume, { recursive: true, force: true });
fs.mkdirSync(volume);
const second = await startShop();
checks.check(
  output.includes("restored") || fs.existsSync(shop.env.DATABASE_PATH),
  "the database was not restored",
);

const restored = new Database(shop.env.DATABASE_PATH, { readonly: true });
const due = written.filter((entry) => entry.answeredAt < killedAt - LOSS_WINDOW_MS);
for (const entry of due) {
  const row = restored
    .prepare("select order_number as orderNumber, status from orders where customer_email = ?")
    .get(entry.email) as { orderNumber: string; status: string } | undefined;
  checks.check(
    row?.orderNumber === entry.orderNumber,
    `${entry.orderNumber}: after the restore ${row?.orderNumber ?? "missing"}`,
  );
  const status = await fetch(entry.statusUrl);
  const page = await status.text();
  checks.check(
    status.status === 200 && page.includes(entry.orderNumber),
    `${entry.orderNumber}: its status link answered ${status.status}`,
  );
  if (entry.downloadUrl) {
    const download = await fetch(entry.downloadUrl);
    checks.check(
      download.status === 200,
      `${entry.orderNumber}: its download page answered ${download.status}`,
    );
  }
  if (entry.refunded) {
    const refunds = restored
      .prepare(
        "select count(*) as n from refunds r join orders o on o.id = r.order_id where o.order_number = ?",
      )
      .get(entry.orderNumber) as { n: number };
    checks.check(refunds.n === 1, `${entry.orderNumber}: ${refunds.n} refunds after the restore`);
  }
}
const lateKept = late
  ? (
      restored.prepare("select count(*) as n from orders where customer_email = ?").get(late.email) as {
        n: number;
      }
    ).n
  : 0;
restored.close();
checks.check(
  log.serverErrors.length === 0,
  `${log.serverErrors.length} answers were 5xx: ${log.serverErrors.slice(0, 5).join(", ")}`,
);

process.kill(-second.child.pid!, "SIGTERM");
await new Promise((resolve) => second.child.once("exit", resolve));

// A mistake found later: the shop put back as it was just before the refund (npm run restore -- --replica --at).
const refundedOrder = written.find((entry) => entry.refunded)!;
// Not spawnSync: the bucket (the fake S3) answers from this very process.
const pointInTime = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
  (resolve) => {
    const restore = spawn(
      process.execPath,
      [
        "node_modules/tsx/dist/cli.mjs",
        "scripts/restore.ts",
        "--replica",
        "--at",
        refundSentAt.toISOString(),
      ],
      { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    restore.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    restore.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    restore.on("close", (status) => resolve({ status, stdout, stderr }));
  },
);
// 3: restored, and the test provider's payments after that moment could not be checked (said so).
checks.check(
  pointInTime.status === 3,
  `restore --replica --at exited ${pointInTime.status}: ${pointInTime.stderr}`,
);
checks.check(/復元しました/.test(pointInTime.stdout), `restore --replica --at said: ${pointInTime.stdout}`);
const before = new Database(shop.env.DATABASE_PATH, { readonly: true });
const atThatMoment = before
  .prepare(
    "select (select count(*) from orders where order_number = ?) as orders, (select count(*) from refunds r join orders o on o.id = r.order_id where o.order_number = ?) as refunds",
  )
  .get(refundedOrder.orderNumber, refundedOrder.orderNumber) as { orders: number; refunds: number };
before.close();
checks.check(
  atThatMoment.orders === 1 && atThatMoment.refunds === 0,
  `as it was before the refund: ${JSON.stringify(atThatMoment)} (the order without its refund expected)`,
);
s3.destroy();
await fake.close();
await shop.close();
fs.rmSync(s3Dir, { recursive: true, force: true });

console.log(
  `replication delay (write answered → in the bucket), ${delays.length} writes: p50 ${Math.round(percentile(delays, 50))} ms, p99 ${Math.round(percentile(delays, 99))} ms, max ${Math.round(delays.at(-1) ?? NaN)} ms`,
);
console.log(
  `drill: ${written.length} orders written (${written.filter((entry) => entry.downloadUrl).length} delivered, ${written.filter((entry) => entry.refunded).length} refunded), ${due.length} answered more than ${LOSS_WINDOW_MS / 1000} s before the SIGKILL; after the volume was deleted the shop restored itself and answered in ${(second.readyMs / 1000).toFixed(1)} s (first start ${(first.readyMs / 1000).toFixed(1)} s); the order paid just before the kill ${late ? (lateKept ? "was kept" : "was lost") : "did not finish"}`,
);
process.exitCode = checks.report();
