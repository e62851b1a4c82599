import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { mediaItems } from "~/server/db/schema";
import { S3Store } from "~/server/files/s3-store.server";
import type { BucketManifest } from "../../scripts/bucket-manifest";
import { s3Environment, startS3Server, TEST_BUCKET, TEST_S3_KEY } from "../helpers/s3-server";

let server: Awaited<ReturnType<typeof startS3Server>>;
let store: S3Store;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "backup-bucket-"));
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn("npx", ["tsx", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

const bytes = {
  video: crypto.randomBytes(6 * 1024 * 1024),
  thumb: crypto.randomBytes(3000),
};
const VIDEO = "media-111111111111111111111111.mp4";
const THUMB = "thumb-222222222222222222222222.png";
let scriptEnv: Record<string, string> = {};

beforeAll(async () => {
  server = await startS3Server();
  store = new S3Store(
    {
      bucket: TEST_BUCKET,
      prefix: "bk/",
      endpoint: `http://127.0.0.1:${server.port}`,
      region: "us-east-1",
      ...TEST_S3_KEY,
      forcePathStyle: true,
      publicBaseUrl: undefined,
    },
    process.env.MEDIA_DIR!,
  );
  // A video assembled from chunks (no SHA-256 in its metadata) and a thumbnail stored whole.
  const upload = {
    uploadId: "",
    storedName: VIDEO,
    storeUploadId: await store.chunks.begin("", VIDEO, "video/mp4", "private"),
    chunkSize: 5 * 1024 * 1024,
    fileSize: bytes.video.length,
    totalChunks: 2,
  };
  const etags: (string | null)[] = [];
  for (const index of [0, 1]) {
    const piece = bytes.video.subarray(index * upload.chunkSize, (index + 1) * upload.chunkSize);
    const sink = await store.chunks.sink(upload, index, piece.length);
    await sink.write(piece);
    etags.push(await sink.finish());
  }
  expect(await store.chunks.complete(upload, etags)).toBe(true);
  await store.putBytes(THUMB, bytes.thumb, "image/png", "public");
  const contestId = createContest("バックアップ大会");
  db()
    .insert(mediaItems)
    .values({
      contestId,
      storedName: VIDEO,
      originalName: "v.mp4",
      category: "sample",
      mediaType: "video",
      contentType: "video/mp4",
      size: bytes.video.length,
      thumbnailStoredName: THUMB,
    })
    .run();
  scriptEnv = {
    ...s3Environment(server.port, "bk"),
    DATABASE_PATH: process.env.DATABASE_PATH!,
    MEDIA_DIR: process.env.MEDIA_DIR!,
    // Nothing answers here: the restore's check for a running server.
    PORT: "9",
  };
});
afterAll(() => server.stop());

describe("backups with the files in object storage", () => {
  it("npm run backup lists every object of the bucket with its size and SHA-256; npm run restore checks the bucket against it and refuses when a file is gone", async () => {
    const backupDir = path.join(work, "backups");
    const backup = await run(["scripts/backup.ts", backupDir], scriptEnv);
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain("バケットの目録: s3://shop-test/bk/ (2 オブジェクト");
    const manifestFile = fs.readdirSync(backupDir).find((name) => name.endsWith(".manifest.json"))!;
    const { bucket } = JSON.parse(fs.readFileSync(path.join(backupDir, manifestFile), "utf8")) as {
      bucket: BucketManifest;
    };
    expect(bucket.objects.map(({ key, size, sha256 }) => ({ key, size, sha256 }))).toEqual([
      { key: `bk/${VIDEO}`, size: bytes.video.length, sha256: sha256(bytes.video) },
      { key: `bk/${THUMB}`, size: bytes.thumb.length, sha256: sha256(bytes.thumb) },
    ]);

    const backupFile = path.join(backupDir, manifestFile.replace(".manifest.json", ".db"));
    const target = { ...scriptEnv, DATABASE_PATH: path.join(work, "restored.db") };
    const restored = await run(["scripts/restore.ts", backupFile], target);
    // 3: restored, but the test provider's payments after it cannot be checked (they were in the database).
    expect(restored.code, restored.err).toBe(3);
    expect(restored.out).toContain("確認できません（確認していません）");
    expect(restored.out).toContain("データベースが参照する 2 ファイルがすべて目録のサイズでそろっています");

    await store.remove(THUMB);
    const refused = await run(["scripts/restore.ts", backupFile], target);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`バケットにありません: ${THUMB}`);
    const forced = await run(["scripts/restore.ts", backupFile, "--force", "--no-payments"], target);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.err).toContain(`バケットにありません: ${THUMB}`);
  });
});
