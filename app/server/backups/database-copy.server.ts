/**
 * A checked copy of the shop's database: the one way the shop copies it (the scheduled snapshot,
 * snapshot.server.ts, in a thread of its own: database-copy-thread.server.ts; `npm run backup`,
 * scripts/backup-lib.ts, on the script's own thread) and checks a copy (`npm run restore`).
 * Only better-sqlite3 and plain paths: no configuration, no clock, nothing that needs the shop
 * started, so a worker thread can load it alone. It keeps the `.server` suffix of every module in
 * app/server: Node, tsx and esbuild, which load it in the thread and the scripts, ignore the
 * suffix, and Remix's build goes on refusing it in browser code.
 */
import Database from "better-sqlite3";

/** Tables whose row counts go into a copy's manifest, to compare a restore against. */
export const COUNTED_TABLES = [
  "contests",
  "athletes",
  "users",
  "orders",
  "order_lines",
  "download_pages",
  "delivery_files",
  "media_items",
  "mail_outbox",
  "refunds",
] as const;

export type CopyRequest = {
  /** The database file to copy (it must exist). */
  database: string;
  /** Where the copy goes: an empty file or none (VACUUM INTO refuses one with content). */
  copy: string;
  /** The tables to count (those the file does not have are left out). */
  tables: readonly string[];
};

export type DatabaseCheck = {
  /** integrity_check's answer: "ok", or the problems it found joined with "; ". */
  integrity: string;
  /** Rows of each counted table the file has; none when the integrity check failed. */
  counts: Record<string, number>;
  /** The newest migration applied (its hash): which build's schema the file has, for people. */
  migration: string | null;
};

/**
 * A consistent copy of `database` in `copy`, checked: VACUUM INTO reads one snapshot (a read
 * transaction, so writers in WAL mode are not blocked; a writer holding the file waits up to 10 s)
 * and writes a compact file, which is then checked with integrity_check and counted. Blocks the
 * thread it runs on for as long as the copy takes (seconds for 100k orders): the server runs it in
 * a thread of its own. The caller decides what a failed check means (`integrity` is not "ok").
 */
export function copyDatabase({ database, copy, tables }: CopyRequest): DatabaseCheck {
  const source = new Database(database, { fileMustExist: true });
  try {
    source.pragma("busy_timeout = 10000");
    source.prepare("VACUUM INTO ?").run(copy);
  } finally {
    source.close();
  }
  return checkDatabase(copy, tables);
}

/** A database file opened read-only: its integrity_check, then (when "ok") its counts and newest migration. */
export function checkDatabase(file: string, tables: readonly string[]): DatabaseCheck {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite
      .prepare<[], { integrity_check: string }>("pragma integrity_check")
      .all()
      .map((row) => row.integrity_check)
      .join("; ");
    // A damaged file is reported by its check, not by a count that fails on it.
    if (integrity !== "ok") return { integrity, counts: {}, migration: null };
    const existing = new Set(
      sqlite
        .prepare<[], { name: string }>("select name from sqlite_master where type = 'table'")
        .all()
        .map((row) => row.name),
    );
    const counts: Record<string, number> = {};
    for (const table of tables) {
      if (existing.has(table))
        counts[table] = sqlite.prepare<[], { n: number }>(`select count(*) as n from "${table}"`).get()?.n ?? 0;
    }
    const migration = existing.has("__drizzle_migrations")
      ? (sqlite
          .prepare<[], { hash: string }>("select hash from __drizzle_migrations order by created_at desc limit 1")
          .get()?.hash ?? null)
      : null;
    return { integrity, counts, migration };
  } finally {
    sqlite.close();
  }
}
