// npm run bench:download — a delivered video downloaded from its download page, from the MEDIA_DIR
// folder (the shop streams it with Range) and from object storage (the shop counts the download
// and answers 302 to a signed URL; the bytes come from the tests' fake S3 in a process of its own, on
// the same disk). Prints each speed next to a plain file copy of the same size on the same disk
// measured in the same run, the shop's peak RSS, and its CPU time per downloaded GiB
// (/proc/<pid>/stat utime + stime): with object storage it must be a small fraction of the local
// mode's; the shop's RSS may grow by 150 MiB at most either way. DOWNLOAD_BENCH_BYTES sets the size (default 1 GiB), DOWNLOAD_BENCH_ROUNDS the number of
// downloads (default 3); --storage local|s3 runs one mode only.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { execSync } from "node:child_process";
import Database from "better-sqlite3";
import { startServer } from "./lib.mjs";
import { benchModes, cpuSeconds, startStorage } from "./storage-lib.mjs";
import { generateFile, peakRssMiB } from "./upload-lib.mjs";

const SIZE = Number(process.env.DOWNLOAD_BENCH_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.DOWNLOAD_BENCH_ROUNDS ?? 3);
const MiB = 1024 * 1024;
const GiB = 1024 ** 3;
const mbps = (bytes, seconds) => bytes / 1e6 / seconds;

if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), "bench-download-"));
const source = path.join(dir, "source.mp4");

/** A paid order whose one line is delivered with the stored file, and its download page. */
function seedDelivery(dbFile, storedName) {
  const db = new Database(dbFile);
  try {
    const order = db
      .prepare(
        "insert into orders (order_number, checkout_id, payment_intent_id, contest_name, customer_email, customer_name, total_amount, line_count) values (?, ?, ?, '計測大会', 'bench@example.jp', '計測 花子', 3000, 1) returning id",
      )
      .get(String(Date.now()).slice(-8), crypto.randomUUID(), crypto.randomUUID());
    const file = db
      .prepare(
        "insert into delivery_files (stored_name, original_name, content_type, size, uploaded_at, retired_at) values (?, 'bench.mp4', 'video/mp4', ?, ?, ?) returning id",
      )
      .get(storedName, SIZE, Date.now(), Date.now());
    const line = db
      .prepare(
        "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price, status, delivery_file_id) values (?, ?, '計測大会', 'A', 1, '計測 花子', '縦', 'vertical', 3000, '対応済み', ?) returning id",
      )
      .get(order.id, `${order.id}-1`, file.id);
    const pageId = crypto.randomBytes(16).toString("base64url");
    db.prepare("insert into download_pages (id, order_id, expires_at) values (?, ?, ?)").run(
      pageId,
      order.id,
      Date.now() + 30 * 86_400_000,
    );
    return `/download/${pageId}/${line.id}/vertical`;
  } finally {
    db.close();
  }
}

/** Downloads the file as a phone's browser would (following the redirect), hashing what arrives. */
async function download(url) {
  const response = await fetch(url, { redirect: "follow" });
  if (response.status !== 200) throw new Error(`download answered ${response.status}`);
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  for await (const piece of response.body) {
    hash.update(piece);
    bytes += piece.length;
  }
  return { bytes, sha256: hash.digest("hex"), redirected: response.redirected };
}

async function measure(mode, expected) {
  const work = fs.mkdtempSync(path.join(dir, `${mode}-`));
  const storage = await startStorage(mode, work);
  const dbFile = path.join(work, "shop.db");
  const storedName = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
  await storage.put(storedName, source);
  const server = await startServer({ ...storage.env, DATABASE_PATH: dbFile });
  try {
    const idleRss = peakRssMiB(server.child.pid);
    const url = `${server.base}${seedDelivery(dbFile, storedName)}`;
    // One byte first: what a first download costs once (the AWS SDK loading) is not per GiB.
    await (await fetch(url, { headers: { Range: "bytes=0-0" } })).arrayBuffer();
    const cpuBefore = cpuSeconds(server.child.pid);
    const start = performance.now();
    let same = true;
    let redirected = false;
    for (let round = 0; round < ROUNDS; round++) {
      const got = await download(url);
      same &&= got.bytes === SIZE && got.sha256 === expected;
      redirected ||= got.redirected;
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuSeconds(server.child.pid) - cpuBefore;
    return { mode, seconds, cpu, peak: peakRssMiB(server.child.pid), idleRss, same, redirected };
  } finally {
    await server.stop();
    await storage.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  const expected = await generateFile(source, SIZE, "download-bench");
  // Baseline: a streamed copy of the same file on the same disk.
  let start = performance.now();
  const copy = path.join(dir, "copy.mp4");
  await pipeline(fs.createReadStream(source, { highWaterMark: MiB }), fs.createWriteStream(copy));
  const handle = fs.openSync(copy, "r+");
  fs.fdatasyncSync(handle);
  fs.closeSync(handle);
  const copySeconds = (performance.now() - start) / 1000;
  fs.rmSync(copy);
  console.log(`plain file copy: ${mbps(SIZE, copySeconds).toFixed(0)} MB/s (${(SIZE / MiB).toFixed(0)} MiB)`);

  const results = [];
  for (const mode of benchModes()) {
    const result = await measure(mode, expected);
    results.push(result);
    const total = SIZE * ROUNDS;
    console.log(
      `download ← ${mode === "s3" ? "object storage (302 to a signed URL)" : "MEDIA_DIR (streamed by the shop)"}: ${mbps(total, result.seconds).toFixed(0)} MB/s over ${ROUNDS} downloads — ${((mbps(total, result.seconds) / mbps(SIZE, copySeconds)) * 100).toFixed(0)}% of the copy`,
    );
    console.log(
      `  shop: CPU ${((result.cpu / total) * GiB).toFixed(3)} s per GiB downloaded; peak RSS ${result.peak.toFixed(0)} MiB (${result.idleRss.toFixed(0)} after start-up)${mode === "s3" ? `; redirected: ${result.redirected ? "yes" : "NO ✗"}` : ""}`,
    );
    console.log(`  downloaded bytes: ${result.same ? "same SHA-256 as the file ✓" : "DIFFER ✗"}`);
  }
  const [local, s3] = [results.find((r) => r.mode === "local"), results.find((r) => r.mode === "s3")];
  if (local && s3)
    console.log(
      `object storage: the shop spends ${((s3.cpu / Math.max(local.cpu, 1e-9)) * 100).toFixed(1)}% of the local mode's CPU per downloaded GiB`,
    );
  const cpuMissed = local && s3 && s3.cpu > local.cpu * 0.1;
  if (cpuMissed)
    console.log("✗ budget: with object storage the shop must spend under 10% of the local mode's CPU");
  // Streaming must follow the client (back-pressure): a download may not hold the file in memory.
  const memoryMissed = results.filter((result) => result.peak - result.idleRss > 150);
  for (const result of memoryMissed)
    console.log(
      `✗ budget: ${result.mode}: the shop grew by more than 150 MiB while serving a ${(SIZE / MiB).toFixed(0)} MiB file`,
    );
  const budgetMissed = cpuMissed || memoryMissed.length > 0;
  process.exitCode = results.every((r) => r.same) && (!s3 || s3.redirected) && !budgetMissed ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
