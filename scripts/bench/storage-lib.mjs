// The benchmarks and the kill-and-resume check in either storage mode: the MEDIA_DIR folder, or a
// local S3 (the tests' fake S3 on loopback, in the run's own folder) that the shop is
// pointed at with STORAGE_URL. BENCH_STORAGE=s3 (or --storage s3) chooses object storage.
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export const BUCKET = "shop-bench";
/** The fake S3 wants requests signed but checks no signature: any key will do. */
const BENCH_KEY = { id: "SHOPBENCHKEY", secret: "shop-bench-secret" };

/** "s3" when BENCH_STORAGE=s3 or `--storage s3` is given, else "local". */
export function storageMode(argv = process.argv) {
  const at = argv.indexOf("--storage");
  const mode = at >= 0 ? argv[at + 1] : process.env.BENCH_STORAGE;
  return mode === "s3" ? "s3" : "local";
}

/**
 * Starts what the mode needs under `dir` and answers the environment that points the shop at it,
 * a reader of a stored file (by its stored name) and stop().
 */
export async function startStorage(mode, dir) {
  const mediaDir = path.join(dir, "media");
  if (mode !== "s3") {
    return {
      env: { MEDIA_DIR: mediaDir },
      read: (name) => fs.createReadStream(path.join(mediaDir, name)),
      put: async (name, file) => {
        fs.mkdirSync(mediaDir, { recursive: true });
        fs.copyFileSync(file, path.join(mediaDir, name));
      },
      stop: async () => undefined,
    };
  }
  // The SDK's notice that its 2027 releases need Node 22 (README, "Deploying"): said once there.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const directory = path.join(dir, "bucket");
  fs.mkdirSync(directory, { recursive: true });
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "bucket-child.mjs"), directory, BUCKET],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (line) => resolve(Number(String(line).trim())));
    child.once("exit", (code) => reject(new Error(`the bucket exited (${code})`)));
  });
  const { S3Client, GetObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: BENCH_KEY.id, secretAccessKey: BENCH_KEY.secret },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    port,
    pid: child.pid,
    client,
    env: {
      MEDIA_DIR: mediaDir,
      STORAGE_URL: `s3://${BUCKET}/bench`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: BENCH_KEY.id,
      S3_SECRET_ACCESS_KEY: BENCH_KEY.secret,
      S3_FORCE_PATH_STYLE: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    read: async (name) =>
      (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `bench/${name}` }))).Body,
    /** Puts a file of this machine's disk into the bucket (streamed), as the shop would have stored it. */
    put: async (name, file) => {
      const { PutObjectCommand } = await import("@aws-sdk/client-s3");
      await client.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `bench/${name}`,
          Body: fs.createReadStream(file),
          ContentLength: fs.statSync(file).size,
        }),
      );
    },
    stop: async () => {
      client.destroy();
      await new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      });
    },
  };
}

/** The SHA-256 of a stored file, read from wherever the mode keeps it. */
export async function sha256OfStored(storage, name) {
  const hash = crypto.createHash("sha256");
  for await (const piece of await storage.read(name)) hash.update(piece);
  return hash.digest("hex");
}

/** The stored name of a media item, from the shop's database. */
export function storedNameOf(dbFile, mediaId) {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("select stored_name as name from media_items where id = ?").get(mediaId)?.name ?? null;
  } finally {
    db.close();
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system, /proc/<pid>/stat), in seconds. */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name (which may hold spaces) are space-separated; utime is 14th, stime 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The modes a benchmark runs: both (the default), or the one `--storage` / BENCH_STORAGE names. */
export function benchModes(argv = process.argv) {
  const chosen = argv.includes("--storage") || process.env.BENCH_STORAGE ? [storageMode(argv)] : null;
  return chosen ?? ["local", "s3"];
}
