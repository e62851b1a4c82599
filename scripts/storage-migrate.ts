/**
 * Moves the shop's files from the local MEDIA_DIR into object storage, before the server is
 * switched over to it.
 *
 *   STORAGE_URL=s3://bucket/prefix S3_ENDPOINT=… S3_REGION=… S3_ACCESS_KEY_ID=… \
 *     S3_SECRET_ACCESS_KEY=… npm run storage:migrate
 *
 * Run it with the server's DATABASE_PATH and MEDIA_DIR, while the server still runs on the
 * folder. Every file is copied and read back (size and SHA-256) before it counts; a second run
 * sends only what is new or did not check out, so run it again right before switching. Exits
 * non-zero when any file failed its check. In the container:
 *   docker exec -e STORAGE_URL=… <container> node build/scripts/storage-migrate.js
 *
 * Every run then makes the delivered videos in the bucket private (Cache-Control: private; those
 * stored before objects had an audience were public). A shop already on the bucket runs only that
 * step, once after upgrading: `npm run storage:migrate -- --only-private` (copying MEDIA_DIR again
 * would bring back files deleted from the bucket since the switch).
 */
import { formatBytes } from "../app/lib/rules/format";
import { env } from "../app/server/core/env.server";
import { S3Store } from "../app/server/files/s3-store.server";
import type { S3Store as Bucket } from "../app/server/files/s3-store.server";
import { ledgerFileFor, makeDeliveredFilesPrivate, migrateMediaToBucket } from "./storage-migrate-lib";

/** The step every run ends with: delivered videos stored before this version made private. */
async function makeDeliveriesPrivate(target: Bucket, databasePath: string) {
  const result = await makeDeliveredFilesPrivate({
    databasePath,
    target,
    onProgress: ({ name, outcome }) => {
      if (outcome === "made-private") console.log(`${name} 非公開（Cache-Control: private）にしました`);
    },
  });
  console.log(
    `納品動画 ${result.madePrivate.length + result.alreadyPrivate} ファイル: 非公開に変更 ${result.madePrivate.length}、非公開済み ${result.alreadyPrivate}${result.missing > 0 ? `（バケットにないもの ${result.missing}）` : ""}`,
  );
}

try {
  const config = env();
  if (!config.S3) {
    console.error(
      "移行先のバケットを STORAGE_URL（s3://バケット名/プレフィックス）と S3_ENDPOINT・S3_REGION・S3_ACCESS_KEY_ID・S3_SECRET_ACCESS_KEY で指定して実行してください。",
    );
    process.exit(2);
  }
  const target = new S3Store(config.S3, config.MEDIA_DIR);
  if (process.argv.includes("--only-private")) {
    await makeDeliveriesPrivate(target, config.DATABASE_PATH);
    process.exit(0);
  }
  const started = performance.now();
  let done = 0;
  const result = await migrateMediaToBucket({
    mediaDir: config.MEDIA_DIR,
    databasePath: config.DATABASE_PATH,
    target,
    ledgerFile: ledgerFileFor(config.DATABASE_PATH),
    onProgress: ({ index, total, name, size, outcome }) => {
      done += size;
      const seconds = (performance.now() - started) / 1000;
      const word = { uploaded: "送信・確認済み", skipped: "移行済み（省略）", failed: "確認失敗" }[outcome];
      console.log(
        `[${index}/${total}] ${name} ${formatBytes(size)} ${word}（累計 ${formatBytes(done)}、${formatBytes(done / Math.max(seconds, 0.001))}/s）`,
      );
    },
  });
  console.log(
    `\n${result.files} ファイル（${formatBytes(result.bytes)}）: 送信 ${result.uploaded.length}、移行済み ${result.skipped.length}、確認失敗 ${result.failed.length}`,
  );
  if (result.missing.length > 0)
    console.warn(
      `警告: データベースが参照している ${result.missing.length} ファイルが MEDIA_DIR にありません（バケットにもありません）: ${result.missing.slice(0, 20).join(", ")}${result.missing.length > 20 ? " …" : ""}`,
    );
  if (result.failed.length > 0) {
    console.error(
      `確認に失敗したファイルがあります（バケットから削除しました）。もう一度実行してください: ${result.failed.join(", ")}`,
    );
    process.exit(1);
  }
  await makeDeliveriesPrivate(target, config.DATABASE_PATH);
  const bucket = `s3://${config.S3.bucket}/${config.S3.prefix}`;
  console.log(
    [
      `すべてのファイルを ${bucket} に移し、サイズと SHA-256 を読み戻して確認しました。`,
      "切り替えの手順:",
      "  1. 切り替え直前にもう一度 npm run storage:migrate を実行する（その間に増えたファイルだけ送ります）",
      `  2. サーバーの環境変数に STORAGE_URL=s3://${config.S3.bucket}${config.S3.prefix ? `/${config.S3.prefix.replace(/\/$/, "")}` : ""} と S3_ENDPOINT・S3_REGION・S3_ACCESS_KEY_ID・S3_SECRET_ACCESS_KEY（と必要なら S3_FORCE_PATH_STYLE・S3_PUBLIC_BASE_URL）を設定し、UPLOAD_CHUNK_BYTES を 5 MiB 以上にして再起動する`,
      "  3. 中断中のアップロードは移行されません（切り替え後に選び直せば最初から送られます）",
      "  4. 動作を確かめてバックアップ（npm run backup）を取るまで、MEDIA_DIR のファイルは消さないでください",
    ].join("\n"),
  );
} catch (error) {
  console.error(`移行に失敗しました: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
