// npm run bench:admin — the sales page, its CSV, the ledger of stray payments and the user list
// with 200,000 order lines, 2,500 refunds (one order in twenty, made three days after it; one in
// a hundred failed) and 10,000 users, timed over HTTP against the production build; the baseline
// is /healthz (a request that touches the database once) timed in the same run on the same server.
import Database from "better-sqlite3";
import { adminCookie, migratedShop, startServer, timeRequests } from "./lib.mjs";

const ORDERS = 50_000;
const LINES_PER_ORDER = 4;
const USERS = 10_000;
const BUDGET_MS = 150;

const { dbFile, env: serverEnv } = await migratedShop("admin");
const db = new Database(dbFile);
const contests = [
  "桜ヶ丘ダンスフェスティバル",
  "みなと市陸上競技大会",
  "青葉ピアノ発表会",
  "秋の新体操選手権",
  "市民文化祭",
];
const seedStart = performance.now();
db.transaction(() => {
  const user = db.prepare(
    "insert into users (email, name, password_hash, is_admin, created_at, last_login_at) values (?, ?, 'x', ?, ?, ?)",
  );
  for (let i = 0; i < USERS; i++)
    user.run(
      `user${i}@example.jp`,
      `ユーザー${i}`,
      i === 0 ? 1 : 0,
      Date.now() - i * 60_000,
      i % 3 ? Date.now() - i * 1000 : null,
    );
  const order = db.prepare(
    "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, customer_email, customer_name, total_amount, line_count, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const line = db.prepare(
    "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const refund = db.prepare(
    "insert into refunds (order_id, payment_intent_id, line_ids, amount, method, reason, request_key, status, created_at) values (?, ?, '[]', 4000, 'card', 'ベンチ', ?, ?, ?)",
  );
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < ORDERS; i++) {
    const contest = contests[i % contests.length];
    const number = String(10_000_000 + i);
    const id = order.run(
      number,
      `bench-${i}`,
      `pi_bench_${i}`,
      contest,
      `user${i % USERS}@example.jp`,
      "ベンチ 太郎",
      LINES_PER_ORDER * 4000,
      LINES_PER_ORDER,
      start + i * 600_000,
    ).lastInsertRowid;
    if (i % 20 === 0)
      refund.run(
        id,
        `pi_bench_${i}`,
        `bench-refund-${i}`,
        i % 100 === 0 ? "failed" : "succeeded",
        start + i * 600_000 + 3 * 86_400_000,
      );
    for (let n = 1; n <= LINES_PER_ORDER; n++)
      line.run(
        id,
        `${number}-${n}`,
        contest,
        "部門",
        n,
        "選手",
        n % 2 ? "縦" : "横",
        n % 2 ? "vertical" : "horizontal",
        4000,
      );
  }
})();
db.close();
console.log(
  `seeded ${USERS} users, ${ORDERS} orders, ${ORDERS * LINES_PER_ORDER} order lines, ${ORDERS / 20} refunds in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
);

const server = await startServer(serverEnv);
try {
  const headers = { Cookie: await adminCookie(dbFile, 1) };
  const baseline = await timeRequests(`${server.base}/healthz`, headers);
  const pages = [
    ["売上集計 (all)", "/admin/sales"],
    [
      "売上集計 (contest + month)",
      `/admin/sales?contest=${encodeURIComponent(contests[1])}&from=2025-03-01&to=2025-03-31`,
    ],
    [
      "売上集計 CSV (contest + month)",
      `/admin/sales.csv?contest=${encodeURIComponent(contests[1])}&from=2025-03-01&to=2025-03-31`,
    ],
    ["注文にならなかった決済", "/admin/stray-payments"],
    ["ユーザー管理 (page 1)", "/admin/users"],
    ["ユーザー管理 (search)", "/admin/users?q=user99"],
    ["ユーザー管理 (page 150)", "/admin/users?page=150"],
  ];
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
}
