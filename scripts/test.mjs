// npm test: install what is missing (npm packages, Debian chromium and ffmpeg), then typecheck,
// lint, formatting, vitest and Playwright (JS on and JS off) against a production build.
import { execSync } from "node:child_process";
import { ensureDependencies, root } from "./ensure-deps.mjs";
import { CHROMIUM, FFMPEG, ensureSystemPackages } from "./system-packages.mjs";

ensureDependencies();
ensureSystemPackages([CHROMIUM, FFMPEG]);

const steps = [
  ["型チェック", "npx tsc --noEmit"],
  ["Lint", "npx eslint . --max-warnings 0"],
  // The formatter's rules are part of the code's: `npm run format` fixes what this finds.
  ["フォーマット", "npx prettier --check ."],
  ["Vitest", "npx vitest run"],
  ["ビルド", "npm run build"],
  ["Playwright", "npx playwright test"],
  // The load test in a shorter form; `npm run test:load` runs it with 50 customers.
  ["負荷テスト（15人が同時に購入）", "npx tsx scripts/load/purchase-load.ts --customers 15"],
  // The fault test in a shorter form; `npm run test:faults` kills the server 30 times.
  ["権限マトリクス（全ルート×訪問者・顧客A・顧客B・管理者）", "npx tsx scripts/fuzz/access-matrix.ts"],
  // Fuzzing in a shorter form; `npm run test:fuzz` sends 1,000 bodies to each endpoint.
  ["ファズテスト（各フォームに不正な入力100件）", "npx tsx scripts/fuzz/fuzz-forms.ts --runs 100"],
  ["障害テスト（購入中にサーバーを5回強制終了）", "npx tsx scripts/load/crash-restart.ts --restarts 5"],
  // The same with the stop fly.io and docker send: requests and payments in flight finish, exit 0.
  // The restore drill in a shorter form; `npm run test:drill` measures the delay over 20 writes.
  [
    "復元ドリル（Litestream: 注文・納品・返金のあと強制終了し、ボリュームを消して復元）",
    "npx tsx scripts/load/litestream-drill.ts --orders 4 --samples 8",
  ],
  [
    "停止テスト（購入中にサーバーを3回 SIGTERM で停止）",
    "npx tsx scripts/load/crash-restart.ts --restarts 3 --signal SIGTERM",
  ],
];
for (const [label, command] of steps) {
  console.log(`\n> ${label}: ${command}`);
  try {
    execSync(command, { cwd: root, stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  } catch {
    console.error(`\n✗ ${label} が失敗しました`);
    process.exit(1);
  }
}
console.log("\n✓ すべてのテストに合格しました");
