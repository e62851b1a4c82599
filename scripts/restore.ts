/**
 * Puts a backup back in place of the shop's database.
 *
 *   npm run restore <backup.db> [-- --force]
 *
 * Stop the server first: a running server keeps the old file open and would go on
 * writing to it. This refuses when a shop answers on PORT (unless --force). The backup
 * is checked (integrity_check), copied beside DATABASE_PATH and renamed over it; the
 * previous file is kept as <DATABASE_PATH>.before-restore-<time>.
 * With STORAGE_URL (files in object storage), every file the backup's database names must be in
 * the bucket with the size the backup's manifest lists, or the restore is refused (--force
 * restores anyway and lists what is missing).
 */
import fs from "node:fs";
import { restoreDatabase, serverAnswers } from "./backup-lib";
import { checkBucketForBackup, type BucketManifest } from "./bucket-manifest";

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

if (process.env.STORAGE_URL) {
  const { env } = await import("../app/server/core/env.server");
  const { S3Store } = await import("../app/server/files/s3-store.server");
  const config = env();
  const manifestFile = file.replace(/\.db$/, ".manifest.json");
  const manifest = fs.existsSync(manifestFile)
    ? ((JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { bucket?: BucketManifest }).bucket ?? null)
    : null;
  if (!manifest)
    console.warn(`警告: バケットの目録がありません（${manifestFile}）。ファイルの有無だけを確認します。`);
  if (!config.S3 || !fs.existsSync(file)) {
    console.error("バックアップファイルか STORAGE_URL が読み取れません");
    process.exit(1);
  }
  const check = await checkBucketForBackup(file, manifest, new S3Store(config.S3, config.MEDIA_DIR));
  const problems = [
    ...check.missing.map((name) => `  バケットにありません: ${name}`),
    ...check.wrongSize.map(
      ({ name, expected, actual }) =>
        `  サイズが違います: ${name}（目録 ${expected} バイト、バケット ${actual} バイト）`,
    ),
  ];
  if (problems.length === 0) {
    console.log(
      `バケットを確認しました: データベースが参照する ${check.checked} ファイルがすべて目録のサイズでそろっています`,
    );
  } else if (!force) {
    console.error(
      `バケットに、このバックアップのデータベースが参照するファイルがそろっていません（${problems.length} 件）。復元を中止しました（--force で続行）:\n${problems.join("\n")}`,
    );
    process.exit(1);
  } else {
    console.warn(
      `警告: バケットにそろっていないファイルがあります（${problems.length} 件）:\n${problems.join("\n")}`,
    );
  }
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
