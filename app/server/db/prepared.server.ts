import type { Db } from "./client.server";
import { db } from "./client.server";

/**
 * A query a screen runs on every request with only its values changing, built and prepared
 * once per connection: drizzle builds a query's SQL from its parts each time it runs, and on
 * the order list that was about as much CPU as SQLite's own work (`npm run bench:profile`).
 * `build` gets the connection and answers drizzle's `.prepare()`, with `sql.placeholder`s for
 * the values.
 */
const statements = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(key: string, build: (connection: Db) => T): T {
  const connection = db();
  let kept = statements.get(connection);
  if (!kept) {
    kept = new Map();
    statements.set(connection, kept);
  }
  if (!kept.has(key)) kept.set(key, build(connection));
  return kept.get(key) as T;
}
