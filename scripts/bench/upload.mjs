// npm run bench:upload — uploads a large generated file in 50 MiB chunks to the production
// build over HTTP and prints its speed next to a plain file copy of the same size on the
// same disk (measured in the same run, since this machine is shared and noisy), and the
// server's peak resident memory, which must stay far below the file size.
// UPLOAD_BENCH_BYTES sets the size (default 1 GiB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { execSync } from "node:child_process";
import { adminCookie, startServer } from "./lib.mjs";
import {
  completeUpload,
  generateFile,
  initUpload,
  peakRssMiB,
  seedAdminAndContest,
  sendChunk,
  sha256OfFile,
} from "./upload-lib.mjs";

const SIZE = Number(process.env.UPLOAD_BENCH_BYTES ?? 1024 ** 3);
const CHUNK = 50 * 1024 * 1024;
const MiB = 1024 * 1024;

if (!fs.existsSync("build/server/index.js")) execSync("npx remix vite:build", { stdio: "inherit" });
// Beside the media folder, so the copy and the upload write to the same disk.
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), "bench-upload-"));
const source = path.join(dir, "source.mp4");
try {
  let start = performance.now();
  const expected = await generateFile(source, SIZE);
  console.log(
    `generated ${(SIZE / MiB).toFixed(0)} MiB in ${((performance.now() - start) / 1000).toFixed(1)} s (sha256 ${expected.slice(0, 16)}…)`,
  );

  // Baseline: a streamed copy of the same file on the same disk, flushed to disk like the upload's chunks.
  start = performance.now();
  const copy = path.join(dir, "copy.mp4");
  await pipeline(fs.createReadStream(source, { highWaterMark: MiB }), fs.createWriteStream(copy));
  const handle = fs.openSync(copy, "r+");
  fs.fdatasyncSync(handle);
  fs.closeSync(handle);
  const copySeconds = (performance.now() - start) / 1000;
  fs.rmSync(copy);

  const dbFile = path.join(dir, "shop.db");
  const mediaDir = path.join(dir, "media");
  const server = await startServer({
    DATABASE_PATH: dbFile,
    MEDIA_DIR: mediaDir,
    UPLOAD_CHUNK_BYTES: String(CHUNK),
    MAX_UPLOAD_BYTES: String(16 * 1024 ** 3),
  });
  try {
    const idleRss = peakRssMiB(server.child.pid);
    const { adminId, contestId } = seedAdminAndContest(dbFile);
    const cookie = await adminCookie(dbFile, adminId);
    start = performance.now();
    const upload = await initUpload({
      base: server.base,
      cookie,
      contestId,
      fileName: "bench.mp4",
      fileSize: SIZE,
    });
    for (let index = 0; index < upload.totalChunks; index++)
      await sendChunk({ base: server.base, cookie, contestId, file: source, fileSize: SIZE, upload, index });
    const item = await completeUpload({ base: server.base, cookie, contestId, uploadId: upload.uploadId });
    const uploadSeconds = (performance.now() - start) / 1000;
    const peak = peakRssMiB(server.child.pid);
    const storedName = item.id ? fs.readdirSync(mediaDir).find((name) => name.startsWith("media-")) : null;
    const same = storedName ? (await sha256OfFile(path.join(mediaDir, storedName))) === expected : false;

    const mbps = (seconds) => SIZE / 1e6 / seconds;
    console.log(`plain file copy:  ${mbps(copySeconds).toFixed(0)} MB/s (${copySeconds.toFixed(1)} s)`);
    console.log(
      `chunked upload:   ${mbps(uploadSeconds).toFixed(0)} MB/s (${uploadSeconds.toFixed(1)} s, ${upload.totalChunks} chunks of ${CHUNK / MiB} MiB over HTTP) — ${((mbps(uploadSeconds) / mbps(copySeconds)) * 100).toFixed(0)}% of the copy`,
    );
    console.log(
      `server memory:    peak RSS ${peak.toFixed(0)} MiB (${idleRss.toFixed(0)} MiB after start-up) for a ${(SIZE / MiB).toFixed(0)} MiB file`,
    );
    console.log(`stored file:      ${same ? "same SHA-256 as the source ✓" : "SHA-256 DIFFERS ✗"}`);
    process.exitCode = same ? 0 : 1;
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
