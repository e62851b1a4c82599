// Shared by the benchmark scripts: start the production build on a free port with a
// given database, mint an admin session, and time requests.
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { mintSessionCookie } from "../mint-session.mjs";

export const SECRET = "bench-session-secret-0123456789abcdefghijklmnop";
/** Production requires a key for the secrets kept in the database. */
export const ENCRYPTION_KEY = "bench-encryption-key-0123456789abcdefghijklmnop";

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the production build; `port` lets a restarted server come back at the same address.
 * `build` and `ready` serve another server build the same way (the benchmark's minimal app);
 * `nodeArgs` go to Node itself (a CPU profile).
 */
export async function startServer(
  env,
  port,
  { build = "build/server/index.js", ready = "/healthz", nodeArgs = [] } = {},
) {
  port ??= await freePort();
  // The shop's server entry run by node itself, so stopping it stops the server.
  const child = spawn(process.execPath, [...nodeArgs, "server-build/index.js"], {
    env: {
      ...process.env,
      REMIX_BUILD: build,
      NODE_ENV: "production",
      PORT: String(port),
      SESSION_SECRET: SECRET,
      ENCRYPTION_KEY: ENCRYPTION_KEY,
      PAYMENT_PROVIDER: "test",
      SITE_URL: `http://127.0.0.1:${port}`,
      // No scheduled snapshot in the middle of a measurement (scripts/bench/snapshot.ts measures one).
      BACKUP_INTERVAL_MINUTES: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}${ready}`)).ok) {
        const stop = () =>
          new Promise((resolve) => {
            // Already ended (killed from outside): its exit event has been and will not come again.
            if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
            child.once("exit", resolve);
            child.kill("SIGTERM");
          });
        return { base, child, stop };
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

/** A session of an admin past the second factor, in the database at `databasePath`. */
export function adminCookie(databasePath, userId) {
  const at = Date.now();
  return mintSessionCookie({
    databasePath,
    secret: SECRET,
    data: { userId, loggedInAt: at, adminVerifiedAt: at },
  });
}

/** Times `count` sequential GETs (after a warm-up) and returns the median and p95 in ms. */
export async function timeRequests(url, headers, count = 40) {
  for (let i = 0; i < 3; i++) await (await fetch(url, { headers })).arrayBuffer();
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { median: at(0.5), p95: at(0.95) };
}

/**
 * A fresh, migrated database in a temporary folder (the production build is made first when
 * missing): the server migrates at start, so it is started once and stopped, and the caller
 * fills the tables directly before timing anything.
 */
export async function migratedShop(label) {
  if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
  const env = { DATABASE_PATH: path.join(dir, "shop.db"), MEDIA_DIR: path.join(dir, "media") };
  const server = await startServer(env);
  await server.stop();
  return { dir, dbFile: env.DATABASE_PATH, env };
}
