/**
 * Puts a backup back in place of the shop's database.
 *
 *   npm run restore <backup.db> [-- --force]
 *
 * Stop the server first: a running server keeps the old file open and would go on
 * writing to it. This refuses when a shop answers on PORT (unless --force). The backup
 * is checked (integrity_check), copied beside DATABASE_PATH and renamed over it; the
 * previous file is kept as <DATABASE_PATH>.before-restore-<time>.
 */
import fs from "node:fs";
import { restoreDatabase, serverAnswers } from "./backup-lib";

const args = process.argv.slice(2);
const force = args.includes("--force");
const file = args.find((arg) => !arg.startsWith("--"));
const databasePath = process.env.DATABASE_PATH ?? "./data/shop.db";
const port = Number(process.env.PORT ?? 3000);

if (!file) {
  console.error("使い方: npm run restore <バックアップファイル.db> [-- --force]");
  process.exit(2);
}
if (await serverAnswers(port)) {
  if (!force) {
    console.error(
      `ポート ${port} でサーバーが動いています。停止してから復元してください（止められない場合は --force）。`,
    );
    process.exit(1);
  }
  console.warn(`警告: ポート ${port} でサーバーが動いています。復元後すぐに再起動してください。`);
} else if (fs.existsSync(`${databasePath}-wal`) && fs.statSync(`${databasePath}-wal`).size > 0) {
  console.warn(
    "警告: 書き込み途中のログ (-wal) があります。サーバーが別のポートで動いていないか確認してください。",
  );
}

try {
  const result = restoreDatabase({ backupFile: file, databasePath });
  console.log(`復元しました: ${result.restored} (integrity_check: ok)`);
  console.log(
    `  件数: ${Object.entries(result.counts)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ")}`,
  );
  if (result.previous) console.log(`以前のファイル: ${result.previous}`);
} catch (error) {
  console.error(`復元に失敗しました: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
