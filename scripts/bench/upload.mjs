// npm run bench:upload — uploads a large generated file in 50 MiB chunks to the production
// build over HTTP, into the MEDIA_DIR folder and into object storage (the tests' fake S3 in a process
// of its own, on the same disk), and prints each speed next to a plain file copy of the same size
// on the same disk (measured in the same run, since this machine is shared and noisy), the
// server's peak resident memory (which must stay far below the file size) and its CPU time.
// UPLOAD_BENCH_BYTES sets the size (default 1 GiB); --storage local|s3 runs one mode only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { execSync } from "node:child_process";
import { adminCookie, startServer } from "./lib.mjs";
import { benchModes, cpuSeconds, sha256OfStored, startStorage, storedNameOf } from "./storage-lib.mjs";
import {
  completeUpload,
  generateFile,
  initUpload,
  peakRssMiB,
  seedAdminAndContest,
  sendChunk,
} from "./upload-lib.mjs";

const SIZE = Number(process.env.UPLOAD_BENCH_BYTES ?? 1024 ** 3);
const CHUNK = 50 * 1024 * 1024;
const MiB = 1024 * 1024;
const mbps = (seconds) => SIZE / 1e6 / seconds;

if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
// Beside the media folder, so the copy and the upload write to the same disk.
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), "bench-upload-"));
const source = path.join(dir, "source.mp4");

/** One upload of the source into a fresh shop whose files are kept the `mode` way. */
async function measure(mode, expected) {
  const work = fs.mkdtempSync(path.join(dir, `${mode}-`));
  const storage = await startStorage(mode, work);
  const dbFile = path.join(work, "shop.db");
  const server = await startServer({
    ...storage.env,
    DATABASE_PATH: dbFile,
    UPLOAD_CHUNK_BYTES: String(CHUNK),
    MAX_UPLOAD_BYTES: String(16 * 1024 ** 3),
  });
  try {
    const idleRss = peakRssMiB(server.child.pid);
    const { adminId, contestId } = seedAdminAndContest(dbFile);
    const cookie = await adminCookie(dbFile, adminId);
    const cpuBefore = cpuSeconds(server.child.pid);
    const start = performance.now();
    const call = { base: server.base, cookie, contestId };
    const upload = await initUpload({ ...call, fileName: "bench.mp4", fileSize: SIZE });
    for (let index = 0; index < upload.totalChunks; index++)
      await sendChunk({ ...call, file: source, fileSize: SIZE, upload, index });
    const item = await completeUpload({ ...call, uploadId: upload.uploadId });
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuSeconds(server.child.pid) - cpuBefore;
    const peak = peakRssMiB(server.child.pid);
    const storedName = storedNameOf(dbFile, item.id);
    const same = storedName ? (await sha256OfStored(storage, storedName)) === expected : false;
    return { mode, seconds, cpu, peak, idleRss, chunks: upload.totalChunks, same };
  } finally {
    await server.stop();
    await storage.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

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
  console.log(`plain file copy:  ${mbps(copySeconds).toFixed(0)} MB/s (${copySeconds.toFixed(1)} s)`);

  let ok = true;
  for (const mode of benchModes()) {
    const result = await measure(mode, expected);
    const label = mode === "s3" ? "object storage" : "MEDIA_DIR";
    console.log(
      `upload → ${label}: ${mbps(result.seconds).toFixed(0)} MB/s (${result.seconds.toFixed(1)} s, ${result.chunks} chunks of ${CHUNK / MiB} MiB over HTTP) — ${((mbps(result.seconds) / mbps(copySeconds)) * 100).toFixed(0)}% of the copy`,
    );
    console.log(
      `  server: peak RSS ${result.peak.toFixed(0)} MiB (${result.idleRss.toFixed(0)} MiB after start-up) for a ${(SIZE / MiB).toFixed(0)} MiB file; CPU ${result.cpu.toFixed(1)} s (${((result.cpu / SIZE) * 1024 ** 3).toFixed(1)} s per GiB)`,
    );
    console.log(`  stored file: ${result.same ? "same SHA-256 as the source ✓" : "SHA-256 DIFFERS ✗"}`);
    ok &&= result.same;
  }
  if (benchModes().includes("s3"))
    console.log(
      "  (object storage here is the tests' fake S3 on the same disk: it writes each part, then the whole object again when the upload completes)",
    );
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
