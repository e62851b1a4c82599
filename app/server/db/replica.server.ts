import fs from "node:fs";
import path from "node:path";
import { env } from "../core/env.server";

/**
 * Which copy of the database this process has, under LiteFS (litefs.yml, Dockerfile.litefs):
 * LiteFS writes a `.primary` file into its mount folder on replicas only, holding the primary's
 * hostname (our litefs.yml makes that the fly.io machine id); the primary has none. Without
 * LITEFS_DIR there is one server and it is the primary. See decision 0019.
 */
export type DatabaseRole = { primary: true } | { primary: false; primaryHost: string };

/** LiteFS promotes and demotes rarely; reading its file once a second is enough for a burst of requests. */
const ROLE_CACHE_MS = 1000;
let cached: { dir: string; at: number; role: DatabaseRole } | null = null;

export function databaseRole(dir: string | undefined = env().LITEFS_DIR): DatabaseRole {
  if (!dir) return { primary: true };
  const at = Date.now();
  if (cached && cached.dir === dir && at - cached.at < ROLE_CACHE_MS) return cached.role;
  let role: DatabaseRole = { primary: true };
  try {
    const host = fs.readFileSync(path.join(dir, ".primary"), "utf8").trim();
    if (host) role = { primary: false, primaryHost: host };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  cached = { dir, at, role };
  return role;
}

export function isPrimary(): boolean {
  return databaseRole().primary;
}

/** For tests that move the `.primary` file: the next call reads it again. */
export function forgetDatabaseRole(): void {
  cached = null;
}
