/**
 * The first step of scripts/start.sh (`npm start`, the Docker image): reads the configuration and,
 * when a bucket takes the backups, writes Litestream's configuration and prints what the script
 * needs, one per line: the configuration file, the database file, the Litestream binary. Prints
 * nothing when there is no bucket (the server then runs alone, with its snapshots in BACKUP_DIR).
 * A bad configuration stops here with the same message the server would give.
 */
import path from "node:path";
import { env } from "../app/server/core/env.server";
import {
  litestreamBinary,
  litestreamConfig,
  writeLitestreamConfig,
} from "../app/server/backups/litestream.server";

try {
  const config = env();
  const text = litestreamConfig(config);
  if (text) {
    const binary = litestreamBinary();
    if (!binary) {
      console.error(
        "[start] バックアップ先のバケットが設定されていますが、Litestream が見つかりません（npm パッケージ @flydotio/litestream-linux-x64、Linux x64 のみ）。npm install を実行してください",
      );
      process.exit(1);
    }
    console.log([writeLitestreamConfig(text), path.resolve(config.DATABASE_PATH), binary].join("\n"));
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
