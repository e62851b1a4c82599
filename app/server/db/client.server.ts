import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { env } from "../core/env.server";
import { isPrimary } from "./replica.server";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** A transaction of the database, for functions that take part in their caller's. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

/**
 * Opens the shop's SQLite file with the settings every connection needs, and migrates it. A
 * LiteFS replica (app/server/db/replica.server.ts) does neither: its file is the primary's copy,
 * migrated there, and its connection only reads (`query_only`), so a write fails at once, before
 * LiteFS would refuse it, and is answered by sending the request to the primary.
 */
export function openDatabase(file: string, { primary = isPrimary() }: { primary?: boolean } = {}): Db {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  if (primary) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  if (primary) migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  else sqlite.pragma("query_only = ON");
  return db;
}

/** Follows a promotion or demotion by LiteFS: a replica's connection only reads. */
export function followDatabaseRole(primary: boolean): void {
  const sqlite = db().$client;
  const readOnly = (sqlite.pragma("query_only", { simple: true }) as number) === 1;
  if (readOnly === !primary) return;
  sqlite.pragma(`query_only = ${primary ? "OFF" : "ON"}`);
}

// One connection per process; kept on globalThis so dev-server reloads reuse it.
const globalForDb = globalThis as unknown as { __shopDb?: Db };

export function db(): Db {
  if (!globalForDb.__shopDb) {
    globalForDb.__shopDb = openDatabase(env().DATABASE_PATH);
    // Under Litestream only it checkpoints: one of ours could reset the WAL under its reading.
    if (env().LITESTREAM_REPLICATES) globalForDb.__shopDb.$client.pragma("wal_autocheckpoint = 0");
  }
  return globalForDb.__shopDb;
}

/** For tests: point the process at another database file. */
export function useDatabase(database: Db) {
  globalForDb.__shopDb = database;
}

export function isDatabaseUp(): boolean {
  try {
    return db().$client.prepare("select 1 as ok").get() !== undefined;
  } catch {
    return false;
  }
}
