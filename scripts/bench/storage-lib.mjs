// The benchmarks and the kill-and-resume check in either storage mode: the MEDIA_DIR folder, or a
// local S3-compatible server (s3rver on loopback, in the run's own folder) that the shop is
// pointed at with STORAGE_URL. BENCH_STORAGE=s3 (or --storage s3) chooses object storage.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import S3rver from "s3rver";

export const BUCKET = "shop-bench";

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
      stop: async () => undefined,
    };
  }
  // The SDK's notice that its 2027 releases need Node 22 (README, "Deploying"): said once there.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const directory = path.join(dir, "bucket");
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const { S3Client, GetObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    port,
    env: {
      MEDIA_DIR: mediaDir,
      STORAGE_URL: `s3://${BUCKET}/bench`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    read: async (name) =>
      (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `bench/${name}` }))).Body,
    stop: async () => {
      client.destroy();
      await server.close();
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
