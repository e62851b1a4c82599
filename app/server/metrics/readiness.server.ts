import { formatBytes } from "~/lib/rules/format";
import { databaseFolder, diskRoom } from "../core/disk.server";
import { db } from "../db/client.server";

/**
 * Whether this server can do its work (`/readyz`), beyond `/healthz`'s "the process answers and
 * the database reads": the database takes a write and the volume has room for one.
 */

/** While checking, a write lock held elsewhere (the separate media worker, a backup) is waited for this long. */
const WRITE_CHECK_WAIT_MS = 1000;

export type Readiness = { ready: true } | { ready: false; failed: string[] };

/**
 * A write transaction begun and rolled back: SQLite takes the write lock (BEGIN IMMEDIATE) and
 * writes nothing. It fails on a read-only connection (`query_only`) or file.
 */
function databaseTakesWrite(): string | null {
  const sqlite = db().$client;
  const wait = sqlite.pragma("busy_timeout", { simple: true }) as number;
  sqlite.pragma(`busy_timeout = ${WRITE_CHECK_WAIT_MS}`);
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    sqlite.exec("ROLLBACK");
    return null;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    return `database does not take a write (${(error as { code?: string }).code ?? String(error)})`;
  } finally {
    sqlite.pragma(`busy_timeout = ${wait}`);
  }
}

/**
 * The database's disk keeps its reserve (core/disk.server.ts): below it, uploads are refused and
 * SQLite's own growth (the WAL, a snapshot's copy) eats into the room orders are written in.
 */
async function volumeHasRoom(): Promise<string | null> {
  const room = await diskRoom(databaseFolder());
  if (!room) return "database folder missing";
  if (room.spareBytes < 0)
    return `disk below its reserve (${formatBytes(room.freeBytes)} free of ${formatBytes(room.sizeBytes)}; reserve ${formatBytes(room.reserveBytes)})`;
  return null;
}

export async function readiness(): Promise<Readiness> {
  const database = databaseTakesWrite();
  const disk = await volumeHasRoom();
  const failed = [database, disk].filter((problem) => problem !== null);
  return failed.length === 0 ? { ready: true } : { ready: false, failed };
}
