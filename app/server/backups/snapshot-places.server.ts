import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Env, S3Config } from "../core/env.server";
import type { S3Store } from "../files/s3-store.server";
import { snapshotTime } from "./snapshot-retention.server";
import type { SnapshotManifest } from "./snapshot.server";

export type StoredSnapshot = { name: string; takenAt: Date; bytes: number };

/**
 * Where snapshots are kept: the backup bucket (BACKUP_URL, else the media bucket) under `backups/`
 * (off the machine, so they outlive its volume), else the BACKUP_DIR folder. Each snapshot has its manifest beside
 * it. The names are the shop's own (snapshotName), so listing is enough to know when each was taken.
 */
export interface SnapshotPlace {
  /** For people: s3://bucket/prefix/backups/ or the folder's absolute path. */
  readonly where: string;
  /** Whether it is off the machine (a bucket) or on a disk of this machine. */
  readonly offMachine: boolean;
  /** Where a snapshot is written before it is kept (the folder itself, or a scratch folder). */
  readonly workFolder: string;
  keep(file: string, manifest: SnapshotManifest): Promise<void>;
  /** Every snapshot kept, the scheduler's and `npm run backup`'s alike, oldest first. */
  list(): Promise<StoredSnapshot[]>;
  remove(name: string): Promise<void>;
  /** Copies a kept snapshot to `target`; answers its manifest (null when it has none). */
  fetch(name: string, target: string): Promise<SnapshotManifest | null>;
}

/** shop-<time>.db.gz (or `npm run backup`'s shop-<time>.db) → shop-<time>.manifest.json */
export function manifestName(name: string): string {
  return name.replace(/\.db(\.gz)?$/, ".manifest.json");
}

export function snapshotPlace(config: Pick<Env, "BACKUP_S3" | "BACKUP_DIR" | "MEDIA_DIR">): SnapshotPlace {
  return config.BACKUP_S3
    ? bucketPlace({ ...config.BACKUP_S3, prefix: `${config.BACKUP_S3.prefix}backups/` }, config.MEDIA_DIR)
    : folderPlace(path.resolve(config.BACKUP_DIR));
}

/** A snapshot's or its manifest's name: all the snapshots' store may address. */
function isSnapshotFile(name: string): boolean {
  return snapshotTime(name.replace(/\.manifest\.json$/, ".db")) !== null;
}

function bucketPlace(config: S3Config, mediaDir: string): SnapshotPlace {
  // A store of its own under backups/, addressing snapshot names only; made when first used, as
  // reading the configuration (start-up's notice) must not load the AWS SDK.
  let store: S3Store | undefined;
  const bucket = async () => (store ??= new (await import("../files/s3-store.server")).S3Store(config, mediaDir, isSnapshotFile));
  return {
    where: `s3://${config.bucket}/${config.prefix}`,
    offMachine: true,
    // Per process: two shops (or tests) on one machine never sweep each other's work.
    workFolder: path.join(os.tmpdir(), `shop-snapshots-${process.pid}`),
    async keep(file, manifest) {
      const objects = await bucket();
      // Manifest last: a snapshot listed with its manifest is whole.
      await objects.putFile(manifest.name, file, "application/gzip", "private");
      await objects.putBytes(
        manifestName(manifest.name),
        Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`),
        "application/json",
        "private",
      );
      fs.rmSync(file, { force: true });
    },
    async list() {
      const found: StoredSnapshot[] = [];
      for await (const object of (await bucket()).list("")) {
        const takenAt = snapshotTime(object.name);
        if (takenAt) found.push({ name: object.name, takenAt, bytes: object.size });
      }
      return oldestFirst(found);
    },
    async remove(name) {
      const objects = await bucket();
      await objects.remove(manifestName(name));
      await objects.remove(name);
    },
    async fetch(name, target) {
      const objects = await bucket();
      await pipeline(await objects.readStream(name), fs.createWriteStream(target));
      if (!(await objects.stat(manifestName(name)))) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of await objects.readStream(manifestName(name))) chunks.push(chunk as Buffer);
      return schedulerManifest(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    },
  };
}

function folderPlace(folder: string): SnapshotPlace {
  return {
    where: `${folder}${path.sep}`,
    offMachine: false,
    workFolder: folder,
    async keep(_file, manifest) {
      fs.writeFileSync(path.join(folder, manifestName(manifest.name)), `${JSON.stringify(manifest, null, 2)}\n`, {
        mode: 0o600,
      });
    },
    async list() {
      if (!fs.existsSync(folder)) return [];
      const found: StoredSnapshot[] = [];
      for (const name of fs.readdirSync(folder)) {
        const takenAt = snapshotTime(name);
        if (takenAt) found.push({ name, takenAt, bytes: fs.statSync(path.join(folder, name)).size });
      }
      return oldestFirst(found);
    },
    async remove(name) {
      fs.rmSync(path.join(folder, manifestName(name)), { force: true });
      fs.rmSync(path.join(folder, name), { force: true });
    },
    async fetch(name, target) {
      fs.copyFileSync(path.join(folder, name), target);
      const manifest = path.join(folder, manifestName(name));
      return fs.existsSync(manifest) ? schedulerManifest(JSON.parse(fs.readFileSync(manifest, "utf8"))) : null;
    },
  };
}

/** A manifest the scheduler wrote (`npm run backup`'s has another shape: no takenAt), or null. */
function schedulerManifest(read: unknown): SnapshotManifest | null {
  const manifest = read as Partial<SnapshotManifest> | null;
  return typeof manifest?.takenAt === "string" && typeof manifest.name === "string"
    ? (manifest as SnapshotManifest)
    : null;
}

function oldestFirst(snapshots: StoredSnapshot[]): StoredSnapshot[] {
  return snapshots.sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
}
