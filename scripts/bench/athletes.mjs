// npm run bench:athletes — the 選手管理 tab of a contest with 2,000 athletes (plus 200
// soft-deleted), timed over HTTP against the production build; the baseline is /healthz
// (a request that touches the database once) timed in the same run on the same server.
import fs from "node:fs";
import Database from "better-sqlite3";
import { adminCookie, migratedShop, startServer, timeRequests } from "./lib.mjs";

const ATHLETES = 2_000;
const DELETED = 200;
const BUDGET_MS = 150;

const { dir, dbFile, env: serverEnv } = await migratedShop("athletes");
const db = new Database(dbFile);
const categoryNames = ["キッズ部門", "ジュニア部門", "シニア部門", "一般部門"];
const statuses = ["販売中", "確認中", "受注停止", "未撮影"];
let contestId = 0;
db.transaction(() => {
  db.prepare(
    "insert into users (email, name, password_hash, is_admin) values ('bench-admin@example.jp', 'ベンチ', 'x', 1)",
  ).run();
  contestId = Number(
    db.prepare("insert into contests (name, slug_key) values ('ベンチマーク大会2025', 'bench2025')").run()
      .lastInsertRowid,
  );
  db.prepare(
    "insert into video_formats (contest_id, name, display_order) values (?, '縦', 0), (?, '横', 1)",
  ).run(contestId, contestId);
  const category = db.prepare("insert into categories (contest_id, name, color) values (?, ?, '#c8102e')");
  for (const name of categoryNames) category.run(contestId, name);
  const athlete = db.prepare(
    "insert into athletes (contest_id, athlete_number, name, category, video_status, photo_status, vertical_video_price, horizontal_video_price, is_deleted) values (?, ?, ?, ?, ?, ?, 5000, 5000, ?)",
  );
  for (let i = 1; i <= ATHLETES + DELETED; i++) {
    athlete.run(
      contestId,
      i,
      `選手${i}`,
      i % 7 === 0 ? "" : categoryNames[i % categoryNames.length],
      statuses[i % statuses.length],
      statuses[(i + 1) % statuses.length],
      i > ATHLETES ? 1 : 0,
    );
  }
})();
const adminId = db.prepare("select id from users where email = 'bench-admin@example.jp'").get().id;
db.close();
console.log(`seeded contest ${contestId} with ${ATHLETES} athletes and ${DELETED} deleted ones`);

const server = await startServer(serverEnv);
try {
  const headers = { Cookie: await adminCookie(dbFile, adminId) };
  const baseline = await timeRequests(`${server.base}/healthz`, headers);
  const tab = `/admin/contest/${contestId}`;
  const pages = [
    ["選手管理 (page 1)", tab],
    ["選手管理 (page 20)", `${tab}?page=20`],
    ["選手管理 (40 = last page)", `${tab}?page=40`],
    ["選手管理 (category filter, page 5)", `${tab}?category=${encodeURIComponent(categoryNames[1])}&page=5`],
    ["選手管理 (search by name)", `${tab}?q=${encodeURIComponent("選手19")}`],
    ["選手管理 (削除済み)", `${tab}?view=deleted`],
  ];
  const first = await fetch(`${server.base}${tab}`, { headers });
  const html = await first.text();
  if (!first.ok || !html.includes('value="選手1"'))
    throw new Error(`the tab did not render its athletes (${first.status})`);
  console.log(`page 1 HTML: ${(html.length / 1024).toFixed(0)} KiB`);
  console.log(
    `baseline /healthz: median ${baseline.median.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms`,
  );
  let failed = false;
  for (const [label, url] of pages) {
    const result = await timeRequests(`${server.base}${url}`, headers);
    const ok = result.median < BUDGET_MS;
    failed ||= !ok;
    console.log(
      `${ok ? "✓" : "✗"} ${label}: median ${result.median.toFixed(1)} ms (${(result.median / baseline.median).toFixed(1)}× baseline), p95 ${result.p95.toFixed(1)} ms — budget median < ${BUDGET_MS} ms`,
    );
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
