/**
 * The bucket's side of a backup when the shop keeps its files in object storage (decision 0019):
 * `npm run backup` lists every object with its size and SHA-256, and `npm run restore` checks
 * that every file the backup's database names is in the bucket with that size.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { S3Store } from "../app/server/files/s3-store.server";
import { referencedNames } from "./storage-migrate-lib";

export type BucketObject = { key: string; name: string; size: number; sha256: string; etag: string };
export type BucketManifest = { url: string; objects: BucketObject[]; bytes: number };

/**
 * Every object under the prefix. The SHA-256 comes from the last backup's manifest when the object
 * is the same (its ETag; stored names are never rewritten), else from the metadata the shop stored
 * with it, else by reading it back (files assembled from chunks have none): each object is read
 * at most once over all backups.
 */
export async function bucketManifest(
  store: S3Store,
  previous: BucketManifest | null,
): Promise<BucketManifest> {
  const known = new Map((previous?.objects ?? []).map((object) => [object.name, object]));
  const objects: BucketObject[] = [];
  for await (const object of store.list("")) {
    const earlier = known.get(object.name);
    let sha256 =
      earlier && earlier.etag === object.etag && earlier.size === object.size ? earlier.sha256 : null;
    sha256 ??= (await store.head(object.name))?.sha256 ?? null;
    if (!sha256) {
      const hash = crypto.createHash("sha256");
      for await (const piece of (await store.readStream(object.name)) as AsyncIterable<Buffer>)
        hash.update(piece);
      sha256 = hash.digest("hex");
    }
    objects.push({
      key: store.key(object.name),
      name: object.name,
      size: object.size,
      sha256,
      etag: object.etag,
    });
  }
  return {
    url: `s3://${store.config.bucket}/${store.config.prefix}`,
    objects,
    bytes: objects.reduce((sum, object) => sum + object.size, 0),
  };
}

/** The newest bucket manifest among a folder's backups, to reuse its checksums. */
export function previousBucketManifest(backupDir: string): BucketManifest | null {
  if (!fs.existsSync(backupDir)) return null;
  const manifests = fs
    .readdirSync(backupDir)
    .filter((name) => /^shop-.*\.manifest\.json$/.test(name))
    .sort()
    .reverse();
  for (const name of manifests) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, name), "utf8")) as {
        bucket?: BucketManifest;
      };
      if (manifest.bucket) return manifest.bucket;
    } catch {
      // an unreadable manifest is skipped
    }
  }
  return null;
}

export type BucketCheck = {
  checked: number;
  /** Named by the database, not in the bucket now. */
  missing: string[];
  /** In the bucket now with another size than the backup's manifest (or the database) says. */
  wrongSize: { name: string; expected: number; actual: number }[];
};

/** Whether the bucket holds what a backup's database needs: every file it names, with its size. */
export async function checkBucketForBackup(
  databaseFile: string,
  manifest: BucketManifest | null,
  store: S3Store,
): Promise<BucketCheck> {
  const recorded = new Map((manifest?.objects ?? []).map((object) => [object.name, object.size]));
  const now = new Map<string, number>();
  for await (const object of store.list("")) now.set(object.name, object.size);
  const check: BucketCheck = { checked: 0, missing: [], wrongSize: [] };
  for (const name of referencedNames(databaseFile)) {
    check.checked++;
    const actual = now.get(name);
    if (actual === undefined) {
      check.missing.push(name);
      continue;
    }
    const expected = recorded.get(name);
    if (expected !== undefined && expected !== actual) check.wrongSize.push({ name, expected, actual });
  }
  return check;
}
