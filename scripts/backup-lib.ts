/**
 * Backup and restore of the shop's SQLite file (and a list of its media), used by
 * scripts/backup.ts and scripts/restore.ts (bundled for the production container: Dockerfile).
 */
import fs from "node:fs";
import path from "node:path";
import {
  checkDatabase,
  copyDatabase,
  COUNTED_TABLES,
  type DatabaseCheck,
} from "../app/server/backups/database-copy.server";

export type MediaEntry = { name: string; size: number };

export type Manifest = {
  createdAt: string;
  database: string;
  databaseBytes: number;
  integrity: string;
  tables: Record<string, number>;
  mediaDir: string;
  media: MediaEntry[];
  mediaBytes: number;
  /** Where the media were copied (hard links when on the same disk), when asked for. */
  mediaCopy: string | null;
};

export type BackupResult = { databaseFile: string; manifestFile: string; manifest: Manifest };

function stamp(date: Date) {
  return date.toISOString().replace(/[:.]/g, "-");
}

/** Every file under the media folder (names relative to it), biggest folders included. */
export function listMedia(mediaDir: string): MediaEntry[] {
  if (!fs.existsSync(mediaDir)) return [];
  const entries: MediaEntry[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile())
        entries.push({ name: path.relative(mediaDir, full), size: fs.statSync(full).size });
    }
  };
  walk(mediaDir);
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** Hard links when the backup is on the same disk (instant, no extra space: media files are never rewritten), copies otherwise. */
function copyMedia(mediaDir: string, media: MediaEntry[], target: string) {
  for (const { name } of media) {
    const from = path.join(mediaDir, name);
    const to = path.join(target, name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    try {
      fs.linkSync(from, to);
    } catch {
      fs.copyFileSync(from, to);
    }
  }
}

/**
 * A consistent copy of the database while the shop keeps running, checked before it counts as a
 * backup: the shop's one checked copy (app/server/backups/database-copy.server.ts, as its
 * scheduled snapshots), here on the script's own thread.
 */
export function backupDatabase(options: {
  databasePath: string;
  mediaDir: string;
  backupDir: string;
  withMedia?: boolean;
  now?: Date;
}): BackupResult {
  const at = options.now ?? new Date();
  if (!fs.existsSync(options.databasePath))
    throw new Error(`データベースがありません: ${options.databasePath}`);
  fs.mkdirSync(options.backupDir, { recursive: true, mode: 0o700 });
  const base = path.join(options.backupDir, `shop-${stamp(at)}`);
  const databaseFile = `${base}.db`;
  const partial = `${databaseFile}.part`;
  fs.rmSync(partial, { force: true });
  // Every customer's name and address: readable by the shop's user only (VACUUM INTO fills this empty file).
  fs.writeFileSync(partial, "", { mode: 0o600 });
  let checked: DatabaseCheck;
  try {
    checked = copyDatabase({ database: options.databasePath, copy: partial, tables: COUNTED_TABLES });
    if (checked.integrity !== "ok")
      throw new Error(`バックアップの整合性チェックに失敗しました: ${checked.integrity}`);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  // Only a checked file gets the final name, so a crash never leaves a half backup that looks whole.
  fs.renameSync(partial, databaseFile);

  const media = listMedia(options.mediaDir);
  let mediaCopy: string | null = null;
  if (options.withMedia) {
    mediaCopy = `${base}-media`;
    copyMedia(options.mediaDir, media, mediaCopy);
  }
  const manifest: Manifest = {
    createdAt: at.toISOString(),
    database: path.basename(databaseFile),
    databaseBytes: fs.statSync(databaseFile).size,
    integrity: checked.integrity,
    tables: checked.counts,
    mediaDir: path.resolve(options.mediaDir),
    media,
    mediaBytes: media.reduce((sum, entry) => sum + entry.size, 0),
    mediaCopy: mediaCopy ? path.basename(mediaCopy) : null,
  };
  const manifestFile = `${base}.manifest.json`;
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { databaseFile, manifestFile, manifest };
}

/** Whether a shop answers on this port (a running server must be stopped before a restore). */
export async function serverAnswers(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return response.status > 0;
  } catch {
    return false;
  }
}

export type RestoreResult = { restored: string; previous: string | null; counts: Record<string, number> };

/**
 * Puts a backup in place of the database. The backup is checked first, written beside
 * the database and renamed over it (atomic on one disk). The old file is kept as
 * `<name>.before-restore-<time>` with its -wal, which must not stay beside the new file:
 * SQLite would replay the old file's log into it.
 */
export function restoreDatabase(options: {
  backupFile: string;
  databasePath: string;
  now?: Date;
}): RestoreResult {
  const at = options.now ?? new Date();
  if (!fs.existsSync(options.backupFile))
    throw new Error(`バックアップファイルがありません: ${options.backupFile}`);
  const { integrity } = checkDatabase(options.backupFile, []);
  if (integrity !== "ok") throw new Error(`バックアップの整合性チェックに失敗しました: ${integrity}`);

  const target = path.resolve(options.databasePath);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.restore-${stamp(at)}.part`;
  fs.copyFileSync(options.backupFile, partial);
  const fd = fs.openSync(partial, "r+");
  fs.fsyncSync(fd);
  fs.closeSync(fd);

  let previous: string | null = null;
  if (fs.existsSync(target)) {
    previous = `${target}.before-restore-${stamp(at)}`;
    try {
      fs.linkSync(target, previous);
    } catch {
      fs.copyFileSync(target, previous);
    }
    if (fs.existsSync(`${target}-wal`)) fs.renameSync(`${target}-wal`, `${previous}-wal`);
  }
  fs.rmSync(`${target}-shm`, { force: true });
  fs.rmSync(`${target}-wal`, { force: true });
  fs.renameSync(partial, target);

  const after = checkDatabase(target, COUNTED_TABLES);
  if (after.integrity !== "ok") throw new Error(`復元後の整合性チェックに失敗しました: ${after.integrity}`);
  return { restored: target, previous, counts: after.counts };
}
