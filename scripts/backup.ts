/**
 * A consistent copy of the shop's database, safe while the server runs.
 *
 *   npm run backup [dir] [-- --with-media]
 *
 * Writes <dir>/shop-<time>.db (VACUUM INTO, checked with integrity_check) and
 * <dir>/shop-<time>.manifest.json (row counts, every media file with its size). With
 * --with-media the media are copied to <dir>/shop-<time>-media (hard links on one disk).
 * dir defaults to BACKUP_DIR, else ./backups. Exits non-zero when anything fails. With STORAGE_URL
 * (files in object storage) the manifest also lists the bucket: every object's key, size and
 * SHA-256 (scripts/bucket-manifest.ts), which `npm run restore` checks.
 */
import fs from "node:fs";
import { formatBytes } from "../app/lib/rules/format";
import { backupDatabase } from "./backup-lib";
import { bucketManifest, previousBucketManifest } from "./bucket-manifest";

const args = process.argv.slice(2);
const withMedia = args.includes("--with-media");
const dir = args.find((arg) => !arg.startsWith("--")) ?? process.env.BACKUP_DIR ?? "./backups";

try {
  const previous = process.env.STORAGE_URL ? previousBucketManifest(dir) : null;
  const { databaseFile, manifestFile, manifest } = backupDatabase({
    databasePath: process.env.DATABASE_PATH ?? "./data/shop.db",
    mediaDir: process.env.MEDIA_DIR ?? "./data/media",
    backupDir: dir,
    withMedia,
  });
  console.log(
    `バックアップを作成しました: ${databaseFile} (${formatBytes(manifest.databaseBytes)}, integrity_check: ${manifest.integrity})`,
  );
  console.log(
    `  件数: ${Object.entries(manifest.tables)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ")}`,
  );
  console.log(
    `目録: ${manifestFile} (メディア ${manifest.media.length} ファイル, ${formatBytes(manifest.mediaBytes)})`,
  );
  if (manifest.mediaCopy) console.log(`メディアのコピー: ${manifest.mediaCopy}`);
  if (process.env.STORAGE_URL) {
    const { env } = await import("../app/server/core/env.server");
    const { S3Store } = await import("../app/server/files/s3-store.server");
    const config = env();
    if (!config.S3) throw new Error("STORAGE_URL が読み取れません");
    const bucket = await bucketManifest(new S3Store(config.S3, config.MEDIA_DIR), previous);
    fs.writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, bucket }, null, 2)}\n`);
    console.log(
      `バケットの目録: ${bucket.url} (${bucket.objects.length} オブジェクト, ${formatBytes(bucket.bytes)}、SHA-256 付き)`,
    );
  }
} catch (error) {
  console.error(`バックアップに失敗しました: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
