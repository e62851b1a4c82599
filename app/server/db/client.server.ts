import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { env } from "../core/env.server";
import { remember } from "../core/remember.server";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** A transaction of the database, for functions that take part in their caller's. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

/** Opens the shop's SQLite file with the settings every connection needs, and migrates it. */
export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return db;
}

// One connection per process, remembered so dev-server reloads reuse it; a holder, as tests replace it.
const connection = remember("db", (): { db?: Db } => ({}));

export function db(): Db {
  if (!connection.db) {
    connection.db = openDatabase(env().DATABASE_PATH);
    // Under Litestream only it checkpoints: one of ours could reset the WAL under its reading.
    if (env().LITESTREAM_REPLICATES) connection.db.$client.pragma("wal_autocheckpoint = 0");
  }
  return connection.db;
}

/** For tests: point the process at another database file. */
export function useDatabase(database: Db) {
  connection.db = database;
}

export function isDatabaseUp(): boolean {
  try {
    return db().$client.prepare("select 1 as ok").get() !== undefined;
  } catch {
    return false;
  }
}
