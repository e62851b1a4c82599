import { db, type Db } from "./client.server";
import { prepared } from "./prepared.server";

/**
 * Values read from the database and kept in memory until the tables they come from change.
 *
 * Staleness is decided by the database itself: triggers count every write to those tables in a
 * one-row version table (`catalogue_version`, migration 0013; `orders_version`, migration 0016),
 * whoever makes it (a screen, the API, a script, another process on the same file), and each
 * read first asks for that count, one indexed row. The kept values are shared between requests:
 * read them, never change them.
 */
export type VersionCache = {
  /** The value kept under `key` while the tables are unchanged, read by `read` when it is not kept. */
  cached<T>(key: string, read: () => T): T;
  /** The tables' write count now. */
  version(): number;
};

export function versionCache(
  table: "catalogue_version" | "orders_version",
  maxEntries: number,
): VersionCache {
  let seen: { connection: Db; version: number } | undefined;
  const entries = new Map<string, unknown>();

  function version(): number {
    const statement = prepared(`version:${table}`, (connection) =>
      connection.$client.prepare<[], { version: number }>(`select version from ${table} where id = 1`),
    );
    return statement.get()?.version ?? 0;
  }

  function cached<T>(key: string, read: () => T): T {
    const connection = db();
    // Inside a transaction the rows read may yet be rolled back: never kept.
    if (connection.$client.inTransaction) return read();
    const now = version();
    if (seen?.connection !== connection || seen.version !== now) {
      entries.clear();
      seen = { connection, version: now };
    }
    if (entries.has(key)) return entries.get(key) as T;
    const value = read();
    // Keys may come from addresses anyone can type (a contest slug): the map never grows past this.
    if (entries.size >= maxEntries) entries.clear();
    entries.set(key, value);
    return value;
  }

  return { cached, version };
}
