import path from "node:path";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { diskSpace } from "./disk.server";

/**
 * Whether this server can do its work (`/readyz`), beyond `/healthz`'s "the process answers and
 * the database reads": the database takes a write and the volume has room for one.
 */

/** Below either, uploads and SQLite's own growth (WAL, VACUUM INTO for a snapshot) are at risk. */
export const MIN_FREE_BYTES = 512 * 1024 ** 2;
export const MIN_FREE_RATIO = 0.02;

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

async function volumeHasRoom(minFreeBytes: number, minFreeRatio: number): Promise<string | null> {
  const space = await diskSpace(path.dirname(path.resolve(env().DATABASE_PATH)));
  if (!space) return "database folder missing";
  const mib = (bytes: number) => `${Math.floor(bytes / 1024 ** 2)} MiB`;
  if (space.freeBytes < minFreeBytes || space.freeBytes < space.sizeBytes * minFreeRatio)
    return `disk almost full (${mib(space.freeBytes)} free of ${mib(space.sizeBytes)}; needs ${mib(minFreeBytes)} and ${minFreeRatio * 100} %)`;
  return null;
}

export async function readiness({
  minFreeBytes = MIN_FREE_BYTES,
  minFreeRatio = MIN_FREE_RATIO,
}: { minFreeBytes?: number; minFreeRatio?: number } = {}): Promise<Readiness> {
  const database = databaseTakesWrite();
  const disk = await volumeHasRoom(minFreeBytes, minFreeRatio);
  const failed = [database, disk].filter((problem) => problem !== null);
  return failed.length === 0 ? { ready: true } : { ready: false, failed };
}
