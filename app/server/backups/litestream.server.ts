import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Env, S3Config } from "../core/env.server";

/**
 * Litestream's side of the shop (decision 0041): where it replicates the database to, and the
 * configuration file it is run with. Pure but for reading where its binary is and writing the file.
 */

/** Under the backup bucket's prefix, beside the snapshots' `backups/`. */
export const REPLICA_FOLDER = "litestream";

/**
 * How Litestream replicates. Every second (its default, the most a lost volume loses); a full
 * snapshot a day, so a restore replays at most a day of WAL; WAL kept three days, so a mistake
 * found after a weekend can still be undone to the second (`npm run restore -- --at`). Older
 * points are the shop's own daily and monthly snapshots.
 */
export const REPLICA_TIMING = { syncInterval: "1s", snapshotInterval: "24h", retention: "72h" };

/** The replica's place: the backup bucket under REPLICA_FOLDER. */
export function replicaOf(bucket: S3Config): { bucket: string; path: string } {
  return { bucket: bucket.bucket, path: `${bucket.prefix}${REPLICA_FOLDER}` };
}

/**
 * Litestream's configuration, as JSON (which YAML reads): the database and its one replica. Keys
 * are written in the file (0600) rather than passed in the environment, so that the server under
 * Litestream is not handed the backup bucket's keys; `-no-expand-env` keeps a `$` in a key as it is.
 */
export function litestreamConfig(
  config: Pick<Env, "DATABASE_PATH" | "BACKUP_S3" | "LITESTREAM_METRICS_PORT">,
): string | null {
  const bucket = config.BACKUP_S3;
  if (!bucket) return null;
  const replica = replicaOf(bucket);
  return `${JSON.stringify(
    {
      // Its numbers, on this machine only: the shop reads them (replica-status.server.ts).
      addr: `127.0.0.1:${config.LITESTREAM_METRICS_PORT}`,
      dbs: [
        {
          path: path.resolve(config.DATABASE_PATH),
          replicas: [
            {
              type: "s3",
              bucket: replica.bucket,
              path: replica.path,
              ...(bucket.endpoint && { endpoint: bucket.endpoint }),
              ...(bucket.region && { region: bucket.region }),
              ...(bucket.forcePathStyle && { "force-path-style": true }),
              "access-key-id": bucket.accessKeyId,
              "secret-access-key": bucket.secretAccessKey,
              "sync-interval": REPLICA_TIMING.syncInterval,
              "snapshot-interval": REPLICA_TIMING.snapshotInterval,
              retention: REPLICA_TIMING.retention,
            },
          ],
        },
      ],
    },
    null,
    2,
  )}\n`;
}

/** The Litestream binary the npm package ships (Linux x64), or null where there is none. */
export function litestreamBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const binary = path.join(
      path.dirname(require.resolve("@flydotio/litestream-linux-x64/package.json")),
      "litestream",
    );
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Writes the configuration into a folder of its own (0700, the file 0600); answers its path. */
export function writeLitestreamConfig(text: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-litestream-"));
  const file = path.join(folder, "litestream.yml");
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}
