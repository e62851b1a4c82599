// The shop the server benchmarks load: the demo seed in a temporary folder, plus 2,000 paid
// orders of the first contest on sale for the admin order list; and the requests they send.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { contestSlug } from "../../app/lib/rules/slug";

export const ADMIN_LIST_ORDERS = 2_000;

export type BenchShop = {
  dir: string;
  env: { DATABASE_PATH: string; MEDIA_DIR: string; MAIL_DIR: string };
  adminId: number;
  /** The order form of the first contest on sale. */
  formPath: string;
  /** A valid first item for that order form's POST. */
  postBody: string;
};

export function seededShop(): BenchShop {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-server-"));
  const env = {
    DATABASE_PATH: path.join(dir, "shop.db"),
    MEDIA_DIR: path.join(dir, "media"),
    MAIL_DIR: path.join(dir, "mail"),
  };
  execSync("npx tsx scripts/seed.ts", { env: { ...process.env, ...env }, stdio: "ignore" });

  // The order form of the first contest on sale, a valid first item for the POST, and 2,000 paid
  // orders of that contest for the admin order list.
  const db = new Database(env.DATABASE_PATH);
  const contest = db
    .prepare("select id, name from contests where video_published = 1 order by id limit 1")
    .get() as { id: number; name: string };
  const athlete = db
    .prepare(
      "select id, athlete_number as number, name, category from athletes where contest_id = ? and video_status = '販売中' limit 1",
    )
    .get(contest.id) as { id: number; number: number; name: string; category: string };
  const format = db
    .prepare("select id from video_formats where contest_id = ? order by display_order limit 1")
    .get(contest.id) as { id: number };
  const adminId = (
    db.prepare("select id from users where is_admin = 1 order by id limit 1").get() as { id: number }
  ).id;
  db.transaction(() => {
    const order = db.prepare(
      `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, contest_id,
         customer_email, customer_name, total_amount, line_count, created_at)
       values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, 'ベンチ 花子', 4000, 1, ?)`,
    );
    const line = db.prepare(
      `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price)
       values (?, ?, ?, ?, ?, ?, '縦', 'vertical', 4000)`,
    );
    for (let i = 0; i < ADMIN_LIST_ORDERS; i++) {
      const number = String(20_000_000 + i);
      const id = order.run(
        number,
        `bench-${i}`,
        `pi_bench_${i}`,
        contest.name,
        contest.id,
        `parent${i}@example.jp`,
        Date.now() - i * 60_000,
      ).lastInsertRowid;
      line.run(id, `${number}-1`, contest.name, athlete.category, athlete.number, athlete.name);
    }
  })();
  db.close();

  const formPath = `/order-form/${encodeURIComponent(contestSlug(contest.name))}`;
  const postBody = new URLSearchParams({
    intent: "add",
    "items[0].category": athlete.category,
    "items[0].athleteId": String(athlete.id),
    "items[0].formatId": String(format.id),
  }).toString();
  return { dir, env, adminId, formPath, postBody };
}
