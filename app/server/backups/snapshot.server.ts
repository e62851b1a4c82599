import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";
import zlib from "node:zlib";
import { formatBytes } from "~/lib/rules/format";
import { diskRoom } from "../core/disk.server";
import { COUNTED_TABLES, type CopyRequest, type DatabaseCheck } from "./database-copy.server";

/** What a snapshot's manifest (stored beside it) says. */
export type SnapshotManifest = {
  takenAt: string;
  /** The snapshot as stored: gzip of the database file. */
  name: string;
  bytes: number;
  databaseBytes: number;
  integrity: "ok";
  tables: Record<string, number>;
  /** The newest migration applied (its hash): which build's schema the snapshot has, for people. */
  migration: string | null;
};

export type TakenSnapshot = { file: string; manifest: SnapshotManifest; seconds: number };

/**
 * The checked copy (database-copy.server.ts) in a thread of its own, so pages keep answering
 * while it runs. The thread is a file, found from this module's own address:
 * - built (`npm run build`, then `npm start`: this module is inside Remix's bundle,
 *   build/server/index.js): server-build/database-copy-thread.js, the thread's entry compiled by
 *   scripts/build-server.mjs, beside build/ as the server entry is (it loads ../build/server/);
 * - from the sources (vitest, `npm run dev`'s Vite, scripts under tsx: this module is a .ts
 *   file): database-copy-thread.server.ts beside it, which Node runs once
 *   scripts/tsx-in-threads.mjs has registered tsx (a devDependency, as those settings have) in
 *   the thread. Only that preload is passed: the parent's own options (tsx's, vitest's) stay out.
 */
function copyThread(): { file: URL; execArgv?: string[] } {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return { file: new URL("../../server-build/database-copy-thread.js", here) };
  return {
    file: new URL("./database-copy-thread.server.ts", here),
    execArgv: ["--import", new URL("../../../scripts/tsx-in-threads.mjs", here).href],
  };
}

function copyInThread(request: CopyRequest): Promise<DatabaseCheck> {
  const { file, execArgv } = copyThread();
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: request, execArgv });
    let answer: DatabaseCheck | null = null;
    worker.once("message", (message: DatabaseCheck) => (answer = message));
    worker.once("error", reject);
    worker.once("exit", (code) =>
      answer ? resolve(answer) : reject(new Error(`スナップショットのスレッドが終了しました（コード ${code}）`)),
    );
  });
}

/**
 * Takes a snapshot of `database` into `folder`: the checked copy, gzipped (a SQLite file packs
 * to about a quarter, and the bucket is paid by the byte), named after `takenAt`. Only a checked,
 * whole file gets its final name: a crash leaves `.part` files, never a half snapshot that looks
 * whole. Throws with the reason when the copy or its check fails.
 */
export async function takeSnapshot(options: {
  database: string;
  folder: string;
  name: string;
  takenAt: Date;
}): Promise<TakenSnapshot> {
  const started = performance.now();
  if (!fs.existsSync(options.database)) throw new Error(`データベースがありません: ${options.database}`);
  // Private: a snapshot holds every customer's name and address (0700 when the shop makes it).
  fs.mkdirSync(options.folder, { recursive: true, mode: 0o700 });
  await ensureRoom(options.database, options.folder);
  const final = path.join(options.folder, options.name);
  const copy = `${final}.db.part`;
  const packed = `${final}.part`;
  fs.rmSync(copy, { force: true });
  // VACUUM INTO writes into an empty file that exists: made first, so the copy is 0600 from its first byte.
  fs.writeFileSync(copy, "", { mode: 0o600 });
  try {
    const { integrity, counts, migration } = await copyInThread({
      database: options.database,
      copy,
      tables: COUNTED_TABLES,
    });
    if (integrity !== "ok") throw new Error(`スナップショットの整合性チェックに失敗しました: ${integrity}`);
    const databaseBytes = fs.statSync(copy).size;
    await pipeline(fs.createReadStream(copy), zlib.createGzip({ level: 6 }), fs.createWriteStream(packed, { mode: 0o600 }));
    // On the disk before it is named: a power cut must not leave an empty file that looks whole.
    const handle = await fsp.open(packed, "r+");
    await handle.sync();
    await handle.close();
    fs.renameSync(packed, final);
    const manifest: SnapshotManifest = {
      takenAt: options.takenAt.toISOString(),
      name: options.name,
      bytes: fs.statSync(final).size,
      databaseBytes,
      integrity: "ok",
      tables: counts,
      migration,
    };
    return { file: final, manifest, seconds: (performance.now() - started) / 1000 };
  } finally {
    // Not rmSync: unlinking the uncompressed copy of a large database takes the file system
    // hundreds of milliseconds (bench:snapshot), which pages would wait behind.
    await fsp.rm(copy, { force: true });
    await fsp.rm(packed, { force: true });
  }
}

/**
 * The copy is as large as the database (before gzip): a snapshot that would take the disk below
 * its reserve (core/disk.server.ts) is refused with the figures, rather than fill the disk the
 * shop writes orders to.
 */
async function ensureRoom(database: string, folder: string): Promise<void> {
  const room = await diskRoom(folder);
  const needed = fs.statSync(database).size;
  if (room && room.spareBytes < needed)
    throw new Error(
      `空き容量が足りません（${folder}: 空き ${formatBytes(room.freeBytes)}、スナップショットの作業に ${formatBytes(needed)} と残しておく ${formatBytes(room.reserveBytes)} が必要です）`,
    );
}

/** A stored snapshot (gzipped, or a plain `.db` of `npm run backup`) unpacked to `target`. */
export async function unpackSnapshot(file: string, target: string): Promise<void> {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  // gzip's magic number; anything else is taken as the database file itself.
  if (!head.equals(Buffer.from([0x1f, 0x8b]))) return fs.copyFileSync(file, target);
  await pipeline(fs.createReadStream(file), zlib.createGunzip(), fs.createWriteStream(target));
}
