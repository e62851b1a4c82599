/**
 * Copies a local MEDIA_DIR into the bucket STORAGE_URL names, checking every object before it
 * counts (used by scripts/storage-migrate.ts; decision 0019). Re-runnable: what a run verified is
 * written to a ledger beside the database, and an object still matching it is skipped.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { LocalStore } from "../app/server/files/local-store.server";
import { S3Store, sha256OfFile } from "../app/server/files/s3-store.server";
import { contentTypeOfStored } from "../app/server/core/sniff.server";
import { coverFileNames } from "../app/server/files/storage.server";

export type LedgerEntry = { size: number; sha256: string; etag: string };
export type Ledger = Record<string, LedgerEntry>;

export type MigrationResult = {
  files: number;
  bytes: number;
  uploaded: string[];
  /** Already in the bucket with the same size and SHA-256 (this or an earlier run checked them). */
  skipped: string[];
  /** Objects that did not read back as the file: deleted from the bucket again. */
  failed: string[];
  /** Files the database names that MEDIA_DIR does not have (they cannot be in the bucket either). */
  missing: string[];
};

export type MigrationProgress = (line: {
  index: number;
  total: number;
  name: string;
  size: number;
  outcome: "uploaded" | "skipped" | "failed";
}) => void;

function columnsOf(sqlite: Database.Database, table: string): Set<string> {
  return new Set(
    (sqlite.prepare(`pragma table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  );
}

/**
 * Every stored file the database names: media, thumbnails, cover variants, samples' posters,
 * delivery files not yet deleted with their posters and phone versions.
 */
export function referencedNames(databasePath: string): string[] {
  const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const names = new Set<string>(deliveredNames(databasePath, { live: true }));
    // Samples' posters came with migration 0020: a database from before has none.
    const poster = columnsOf(sqlite, "media_items").has("poster_stored_name") ? "poster_stored_name" : "null";
    const media = sqlite
      .prepare(
        `select stored_name as name, thumbnail_stored_name as thumb, ${poster} as poster, category from media_items`,
      )
      .all() as { name: string; thumb: string | null; poster: string | null; category: string }[];
    for (const row of media) {
      for (const name of row.category === "cover-image" ? coverFileNames(row.name) : [row.name])
        names.add(name);
      if (row.thumb) names.add(row.thumb);
      if (row.poster) names.add(row.poster);
    }
    return [...names].sort();
  } finally {
    sqlite.close();
  }
}

/**
 * The stored files of delivered videos (the videos, their posters and phone versions): stored
 * private. `live`: only those of files whose bytes have not been deleted.
 */
export function deliveredNames(databasePath: string, { live }: { live: boolean }): string[] {
  const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const columns = columnsOf(sqlite, "delivery_files");
    // Posters and phone versions came with migration 0020: a database from before has none.
    const named = ["stored_name", "poster_stored_name", "phone_stored_name"].filter((column) =>
      columns.has(column),
    );
    const rows = sqlite
      .prepare(`select ${named.join(", ")} from delivery_files${live ? " where deleted_at is null" : ""}`)
      .raw()
      .all() as (string | null)[][];
    return [...new Set(rows.flat().filter((name): name is string => Boolean(name)))].sort();
  } finally {
    sqlite.close();
  }
}

export type PrivacyResult = { madePrivate: string[]; alreadyPrivate: number; missing: number };

/**
 * Delivered videos stored before objects had an audience carry the public Cache-Control: each
 * one the database still serves is copied onto itself as private (S3Store.makePrivate). Run by
 * every `npm run storage:migrate` (after its copies), and alone with `--only-private` on a shop
 * already on the bucket. Idempotent: a private object is only looked at (HEAD).
 */
export async function makeDeliveredFilesPrivate(options: {
  databasePath: string;
  target: S3Store;
  onProgress?: (line: { name: string; outcome: "made-private" | "already-private" | "missing" }) => void;
}): Promise<PrivacyResult> {
  const result: PrivacyResult = { madePrivate: [], alreadyPrivate: 0, missing: 0 };
  for (const name of deliveredNames(options.databasePath, { live: true })) {
    const outcome = await options.target.makePrivate(name);
    if (outcome === "made-private") result.madePrivate.push(name);
    else if (outcome === "already-private") result.alreadyPrivate++;
    else result.missing++;
    options.onProgress?.({ name, outcome });
  }
  return result;
}

async function sha256OfStream(stream: AsyncIterable<Buffer>): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const piece of stream) hash.update(piece);
  return hash.digest("hex");
}

export async function migrateMediaToBucket(options: {
  mediaDir: string;
  databasePath: string;
  target: S3Store;
  ledgerFile: string;
  onProgress?: MigrationProgress;
}): Promise<MigrationResult> {
  const { target } = options;
  const source = new LocalStore(options.mediaDir);
  const ledger: Ledger = fs.existsSync(options.ledgerFile)
    ? (JSON.parse(fs.readFileSync(options.ledgerFile, "utf8")) as Ledger)
    : {};
  const saveLedger = () => {
    fs.writeFileSync(`${options.ledgerFile}.part`, `${JSON.stringify(ledger, null, 2)}\n`);
    fs.renameSync(`${options.ledgerFile}.part`, options.ledgerFile);
  };
  const files: { name: string; size: number }[] = [];
  for await (const file of source.list("")) files.push({ name: file.name, size: file.size });
  const onDisk = new Set(files.map((file) => file.name));
  const privateNames = new Set(deliveredNames(options.databasePath, { live: false }));
  const result: MigrationResult = {
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.size, 0),
    uploaded: [],
    skipped: [],
    failed: [],
    missing: referencedNames(options.databasePath).filter((name) => !onDisk.has(name)),
  };

  for (const [position, { name, size }] of files.entries()) {
    const file = source.pathOf(name);
    const sha256 = await sha256OfFile(file);
    const report = (outcome: "uploaded" | "skipped" | "failed") =>
      options.onProgress?.({ index: position + 1, total: files.length, name, size, outcome });
    const there = await target.head(name);
    const recorded = ledger[name];
    // Checked by an earlier run and untouched since: the same object (ETag) of the same file.
    if (
      there &&
      recorded &&
      recorded.size === size &&
      recorded.sha256 === sha256 &&
      recorded.etag === there.etag
    ) {
      result.skipped.push(name);
      report("skipped");
      continue;
    }
    const readsBack = async () => {
      const head = await target.head(name);
      if (!head || head.size !== size) return null;
      return (await sha256OfStream((await target.readStream(name)) as AsyncIterable<Buffer>)) === sha256
        ? head
        : null;
    };
    // Sent by a run that stopped before it wrote the ledger: read it back rather than send it again.
    const verified = there && there.size === size && there.sha256 === sha256 ? await readsBack() : null;
    if (verified) {
      ledger[name] = { size, sha256, etag: verified.etag };
      saveLedger();
      result.skipped.push(name);
      report("skipped");
      continue;
    }
    await target.copyFile(
      name,
      file,
      contentTypeOfStored(name) ?? "application/octet-stream",
      sha256,
      privateNames.has(name) || name.startsWith("delivery-") ? "private" : "public",
    );
    const checked = await readsBack();
    if (!checked) {
      await target.remove(name);
      delete ledger[name];
      saveLedger();
      result.failed.push(name);
      report("failed");
      continue;
    }
    ledger[name] = { size, sha256, etag: checked.etag };
    saveLedger();
    result.uploaded.push(name);
    report("uploaded");
  }
  return result;
}

/** Where a run keeps what it verified: beside the database, never inside MEDIA_DIR. */
export function ledgerFileFor(databasePath: string): string {
  return path.join(path.dirname(path.resolve(databasePath)), "storage-migrate.json");
}
