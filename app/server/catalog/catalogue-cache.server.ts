import type { Statement } from "better-sqlite3";
import { db, type Db } from "../db/client.server";

/**
 * What every visitor sees alike (the home page's contests, a contest's order-form options, its
 * samples), read from the database once and kept in memory until the catalogue changes: in the
 * hour after a recital hundreds of parents open the same order form, and its six queries were a
 * third of the page's CPU (`npm run bench:profile`).
 *
 * Staleness is decided by the database itself: triggers count every write to the catalogue's
 * tables in `catalogue_version` (migration 0013), whoever makes it (a screen, the API, a script,
 * another process on the same file), and each read first asks for that count, one indexed row.
 * What depends on the time (whether a contest is on sale yet) is decided per request from the
 * kept rows, never kept itself. The kept values are shared between requests: read them, never
 * change them.
 */
const MAX_ENTRIES = 1_000;

let seen: { connection: Db; version: number } | undefined;
let versionQuery: { connection: Db; statement: Statement<[], { version: number }> } | undefined;
const entries = new Map<string, unknown>();

function catalogueVersion(connection: Db): number {
  if (versionQuery?.connection !== connection)
    versionQuery = {
      connection,
      statement: connection.$client.prepare<[], { version: number }>(
        "select version from catalogue_version where id = 1",
      ),
    };
  return versionQuery.statement.get()?.version ?? 0;
}

/** The value kept under `key` while the catalogue is unchanged, read by `read` when it is not kept. */
export function catalogueCached<T>(key: string, read: () => T): T {
  const connection = db();
  // Inside a transaction the rows read may yet be rolled back: never kept.
  if (connection.$client.inTransaction) return read();
  const version = catalogueVersion(connection);
  if (seen?.connection !== connection || seen.version !== version) {
    entries.clear();
    seen = { connection, version };
  }
  if (entries.has(key)) return entries.get(key) as T;
  const value = read();
  // Keys may come from addresses anyone can type (a contest slug): the map never grows past this.
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, value);
  return value;
}
