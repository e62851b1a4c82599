// Kill-and-resume check of the chunked upload, against the production build over HTTP:
// a generated file (1 GiB by default; UPLOAD_RESUME_BYTES or the first argument sets
// another size) is sent in 50 MiB chunks, the server is killed with SIGKILL in the middle
// of a chunk, started again on the same database and media folder, and the upload
// continues from the server's receivedChunks. The stored file must have the SHA-256 of
// the source. Prints one JSON line; exits 1 when anything differs. With BENCH_STORAGE=s3
// (or --storage s3) the files go to object storage (the tests' fake S3): the upload is an S3
// multipart upload, resumed from the parts S3 lists. With --sigterm the server is stopped as fly.io
// and docker stop it, while the chunk is still coming slowly (the client stops sending): it waits
// for the request (SHUTDOWN_GRACE_MS, 2 s here), closes it, must exit 0, and the chunk cut there
// must not count as received.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { adminCookie, startServer } from "./lib.mjs";
import { sha256OfStored, startStorage, storageMode, storedNameOf } from "./storage-lib.mjs";
import {
  completeUpload,
  generateFile,
  initUpload,
  peakRssMiB,
  seedAdminAndContest,
  sendChunk,
} from "./upload-lib.mjs";

const SIZE = Number(
  process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? process.env.UPLOAD_RESUME_BYTES ?? 1024 ** 3,
);
const MODE = storageMode();
const SIGNAL = process.argv.includes("--sigterm") ? "SIGTERM" : "SIGKILL";
const CHUNK = 50 * 1024 * 1024;

if (!fs.existsSync("server-build/index.js")) {
  console.error("server-build/index.js がありません。先に npm run build を実行してください");
  process.exit(1);
}
const started = performance.now();
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), "upload-resume-"));
const source = path.join(dir, "recital.mp4");
const storage = await startStorage(MODE, dir);
const env = {
  ...storage.env,
  DATABASE_PATH: path.join(dir, "shop.db"),
  UPLOAD_CHUNK_BYTES: String(CHUNK),
  MAX_UPLOAD_BYTES: String(16 * 1024 ** 3),
  SHUTDOWN_GRACE_MS: "2000",
};
let server = null;
try {
  const expected = await generateFile(source, SIZE, "resume");
  server = await startServer(env);
  const { adminId, contestId } = seedAdminAndContest(env.DATABASE_PATH);
  const cookie = await adminCookie(env.DATABASE_PATH, adminId);
  const call = (base) => ({ base, cookie, contestId, file: source, fileSize: SIZE });

  const upload = await initUpload({ ...call(server.base), fileName: "recital.mp4", fileSize: SIZE });
  const killAt = Math.floor(upload.totalChunks / 2);
  for (let index = 0; index < killAt; index++) await sendChunk({ ...call(server.base), upload, index });

  // Kill the server once about half of chunk killAt has been sent.
  const victim = server;
  let sentBytes = 0;
  let killedMidChunk = false;
  const interrupted = await sendChunk({
    ...call(server.base),
    upload,
    index: killAt,
    onRequest: (request) => {
      const write = request.write.bind(request);
      request.write = (bytes, ...rest) => {
        // After a SIGTERM the client goes quiet (a phone that lost its signal): nothing more is
        // written and the stream waits for a drain that never comes.
        if (killedMidChunk && SIGNAL === "SIGTERM") return false;
        sentBytes += bytes.length;
        if (!killedMidChunk && sentBytes > CHUNK / 2) {
          killedMidChunk = true;
          victim.child.kill(SIGNAL);
        }
        return write(bytes, ...rest);
      };
    },
  }).then(
    () => "stored",
    (error) => `failed (${error.code ?? error.message})`,
  );
  await new Promise((resolve) =>
    victim.child.exitCode !== null || victim.child.signalCode !== null
      ? resolve()
      : victim.child.once("exit", resolve),
  );
  const stoppedBy = victim.child.signalCode ?? `exit ${victim.child.exitCode}`;
  server = await startServer(env);
  const idleRss = peakRssMiB(server.child.pid);

  const resumed = await initUpload({ ...call(server.base), fileName: "recital.mp4", fileSize: SIZE });
  for (let index = resumed.receivedChunks; index < resumed.totalChunks; index++)
    await sendChunk({ ...call(server.base), upload: resumed, index });
  const item = await completeUpload({ ...call(server.base), uploadId: resumed.uploadId });
  const peak = peakRssMiB(server.child.pid);
  const storedName = storedNameOf(env.DATABASE_PATH, item.id);
  const actual = storedName ? await sha256OfStored(storage, storedName) : null;
  const result = {
    storage: MODE,
    bytes: SIZE,
    chunks: upload.totalChunks,
    chunkSize: upload.chunkSize,
    signal: SIGNAL,
    /** How the stopped server ended: a SIGTERM must end in exit 0 (graceful shutdown). */
    stoppedBy,
    killedDuringChunk: killAt,
    killedMidChunk,
    interruptedChunk: interrupted,
    resumedFrom: resumed.receivedChunks,
    sameUploadId: resumed.uploadId === upload.uploadId,
    mediaId: item.id,
    sha256Expected: expected,
    sha256Stored: actual,
    sha256Equal: actual === expected,
    peakRssMiBAfterRestart: Math.round(peak),
    /** How much the restarted server grew while it received the second half: a chunk or a file held in memory would show here. */
    peakRssGrowthMiB: Math.round(peak - idleRss),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  console.log(JSON.stringify(result));
  const ok =
    result.sha256Equal &&
    result.sameUploadId &&
    killedMidChunk &&
    (SIGNAL === "SIGKILL" || stoppedBy === "exit 0") &&
    result.resumedFrom === killAt &&
    result.chunks === Math.ceil(SIZE / CHUNK);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server?.stop().catch(() => undefined);
  await storage.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
