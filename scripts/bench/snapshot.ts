// npm run bench:snapshot — the shop's scheduled snapshot (app/server/backups/snapshot.server.ts)
// of a database with 10,000 and 100,000 paid orders: its time, its size as stored (gzip) against
// the database file, and what it costs the pages meanwhile. The baseline, measured in the same run
// on the same database, is the event loop's longest stall over the same time without a snapshot;
// against it, the snapshot as taken (VACUUM INTO in a thread of its own) and VACUUM INTO on the
// server's own thread, which every page would wait behind.
//
//   npm run bench:snapshot [-- --orders 10000,100000]
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import Database from "better-sqlite3";
import { takeSnapshot } from "../../app/server/backups/snapshot.server";
import { deliveryMail } from "../../app/server/mail/templates/delivery.server";
import { orderConfirmationMail } from "../../app/server/mail/templates/order-confirmation.server";
import { migratedShop } from "./lib.mjs";

const ordersAt = process.argv.indexOf("--orders");
const SIZES = (ordersAt > 0 ? process.argv[ordersAt + 1]! : "10000,100000").split(",").map(Number);
const ROUNDS = 3;

const CONTESTS = [
  "桜ヶ丘ダンスフェスティバル",
  "みなと市陸上競技大会",
  "青葉ピアノ発表会",
  "秋の新体操選手権",
];
const SITE = "https://contest-video-shop.fly.dev";
const token = () => crypto.randomBytes(16).toString("hex");

/**
 * Paid orders of 1–4 lines, their checkouts, accounts for a third, and the two mails each order
 * leaves in the outbox (sent mail is kept), written by the shop's own templates with their own links.
 */
function fill(file: string, count: number): void {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.transaction(() => {
    const user = db.prepare(
      "insert into users (email, name, password_hash, created_at) values (?, ?, 'scrypt$bench', ?)",
    );
    const checkout = db.prepare(
      "insert into checkouts (id, items, customer_email, customer_name, status, payment_intent_id, amount, priced_lines, email_verified_at, created_at) values (?, '[]', ?, ?, 'paid', ?, ?, ?, ?, ?)",
    );
    const order = db.prepare(
      "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, customer_email, customer_name, total_amount, line_count, paid_at, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const line = db.prepare(
      "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price) values (?, ?, ?, '小学生の部', ?, ?, '縦', 'vertical', 4000)",
    );
    const mail = db.prepare(
      "insert into mail_outbox (to_address, subject, text_body, html_body, status, next_attempt_at, sent_at, created_at) values (?, ?, ?, ?, 'sent', ?, ?, ?)",
    );
    const start = Date.UTC(2025, 0, 1);
    for (let i = 0; i < count; i++) {
      const at = start + i * 300_000;
      const email = `parent${i}@example.jp`;
      const lines = 1 + (i % 4);
      const contestName = CONTESTS[i % CONTESTS.length]!;
      const orderNumber = String(10_000_000 + i);
      if (i % 3 === 0) user.run(email, `保護者 ${i}`, at);
      const priced = JSON.stringify(
        Array.from({ length: lines }, (_, n) => ({
          category: "小学生の部",
          athleteId: n + 1,
          athleteNumber: 100 + n,
          athleteName: `選手 ${n}`,
          formatId: 1,
          style: "縦",
          orientation: "vertical",
          price: 4000,
        })),
      );
      checkout.run(`bench-${i}`, email, `保護者 ${i}`, `pi_bench_${i}`, lines * 4000, priced, at, at);
      const id = order.run(
        orderNumber,
        `bench-${i}`,
        `pi_bench_${i}`,
        contestName,
        email,
        `保護者 ${i}`,
        lines * 4000,
        lines,
        at,
        at,
      ).lastInsertRowid;
      for (let n = 0; n < lines; n++)
        line.run(id, `${orderNumber}-${n + 1}`, contestName, 100 + n, `選手 ${n}`);
      const confirmation = orderConfirmationMail({
        customerName: `保護者 ${i}`,
        orderNumber,
        contestName,
        bibNumberLabel: "ゼッケン",
        lines: Array.from({ length: lines }, (_, n) => ({
          category: "小学生の部",
          athleteNumber: 100 + n,
          athleteName: `選手 ${n}`,
          style: "縦",
          price: 4000,
        })),
        totalAmount: lines * 4000,
        statusUrl: `${SITE}/order-status/${token()}`,
        promisedDay: "2025-02-01",
      });
      const delivery = deliveryMail({
        customerName: `保護者 ${i}`,
        orderNumber,
        contestName,
        url: `${SITE}/download/${token()}`,
        expiresAt: new Date(at + 30 * 86_400_000),
        videoCount: lines,
      });
      for (const sent of [confirmation, delivery])
        mail.run(email, sent.subject, sent.text, sent.html, at, at, at);
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** The event loop's longest stall (ms) while `work` runs, sampled every 10 ms. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stallMs: number; seconds: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  // One more turn, so a stall at the very end is sampled.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return { stallMs: histogram.max / 1e6, seconds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

for (const count of SIZES) {
  const { dir, dbFile } = await migratedShop(`snapshot-${count}`);
  const filled = performance.now();
  fill(dbFile, count);
  const databaseBytes = fs.statSync(dbFile).size;
  console.log(
    `${count} orders: database ${mb(databaseBytes)} (filled in ${((performance.now() - filled) / 1000).toFixed(1)} s)`,
  );

  const taken: { seconds: number; stallMs: number; bytes: number }[] = [];
  const onThread: number[] = [];
  const idle: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const folder = path.join(dir, `round-${round}`);
    let bytes = 0;
    const snapshot = await longestStall(async () => {
      const result = await takeSnapshot({
        database: dbFile,
        folder,
        name: "shop.db.gz",
        takenAt: new Date(),
      });
      bytes = result.manifest.bytes;
    });
    taken.push({ ...snapshot, bytes });
    // The baseline: the same time with nothing to do but a timer.
    idle.push(
      (await longestStall(() => new Promise((resolve) => setTimeout(resolve, snapshot.seconds * 1000))))
        .stallMs,
    );
    // VACUUM INTO on this thread, as the server would take it without a thread of its own.
    const copy = path.join(folder, "main-thread.db");
    onThread.push(
      (
        await longestStall(async () => {
          await new Promise((resolve) => setTimeout(resolve, 15));
          const source = new Database(dbFile, { readonly: true });
          source.prepare("VACUUM INTO ?").run(copy);
          source.close();
        })
      ).stallMs,
    );
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const seconds = median(taken.map((round) => round.seconds));
  const bytes = median(taken.map((round) => round.bytes));
  const stall = median(taken.map((round) => round.stallMs));
  console.log(
    `  snapshot: ${seconds.toFixed(2)} s, ${mb(bytes)} stored (${((bytes / databaseBytes) * 100).toFixed(0)} % of the file)`,
  );
  console.log(
    `  longest stall of the event loop: baseline ${median(idle).toFixed(0)} ms, during the snapshot ${stall.toFixed(0)} ms (${(stall / median(idle)).toFixed(2)}×), VACUUM INTO on the server's thread ${median(onThread).toFixed(0)} ms (${(median(onThread) / median(idle)).toFixed(2)}×)`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}
