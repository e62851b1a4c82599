import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { mediaItems } from "~/server/db/schema";
import { S3Store } from "~/server/files/s3-store.server";
import { migrateMediaToBucket } from "../../scripts/storage-migrate-lib";
import { startS3Server, TEST_BUCKET, TEST_S3_KEY } from "../helpers/s3-server";

let server: Awaited<ReturnType<typeof startS3Server>>;
let target: S3Store;
const mediaDir = path.resolve(process.env.MEDIA_DIR!);
const ledgerFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ledger-")), "storage-migrate.json");
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  server = await startS3Server();
  target = new S3Store(
    {
      bucket: TEST_BUCKET,
      prefix: "migrated/",
      endpoint: `http://127.0.0.1:${server.port}`,
      region: "us-east-1",
      ...TEST_S3_KEY,
      forcePathStyle: true,
      publicBaseUrl: undefined,
    },
    mediaDir,
  );
});
afterAll(() => server.stop());

async function objectBytes(store: S3Store, name: string) {
  const pieces: Buffer[] = [];
  for await (const piece of (await store.readStream(name)) as AsyncIterable<Buffer>) pieces.push(piece);
  return Buffer.concat(pieces);
}

const files: Record<string, Buffer> = {
  "media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4": crypto.randomBytes(300_000),
  "thumb-bbbbbbbbbbbbbbbbbbbbbbbb.png": crypto.randomBytes(2_000),
  "delivery-cccccccccccccccccccccccc.mov": crypto.randomBytes(70_000),
};

describe("npm run storage:migrate", () => {
  it("copies every file, checks size and SHA-256 by reading back, says which referenced files are missing, and a second run sends nothing", async () => {
    fs.mkdirSync(path.join(mediaDir, "uploads"), { recursive: true });
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(mediaDir, name), bytes);
    // An upload under way is not a stored file.
    fs.writeFileSync(path.join(mediaDir, "uploads", `${"d".repeat(32)}.part`), "partial");
    const contestId = createContest("移行テスト大会");
    db()
      .insert(mediaItems)
      .values([
        {
          contestId,
          storedName: "media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4",
          originalName: "a.mp4",
          category: "sample",
          mediaType: "video",
          contentType: "video/mp4",
          size: 300_000,
          thumbnailStoredName: "thumb-bbbbbbbbbbbbbbbbbbbbbbbb.png",
        },
        {
          contestId,
          storedName: "media-eeeeeeeeeeeeeeeeeeeeeeee.mp4",
          originalName: "lost.mp4",
          category: "sample",
          mediaType: "video",
          contentType: "video/mp4",
          size: 10,
        },
      ])
      .run();

    const progress: string[] = [];
    const first = await migrateMediaToBucket({
      mediaDir,
      databasePath: process.env.DATABASE_PATH!,
      target,
      ledgerFile,
      onProgress: ({ index, total, name, outcome }) => progress.push(`${index}/${total} ${name} ${outcome}`),
    });
    expect(first).toMatchObject({ files: 3, bytes: 372_000, failed: [], skipped: [] });
    expect(first.uploaded.sort()).toEqual(Object.keys(files).sort());
    expect(first.missing).toEqual(["media-eeeeeeeeeeeeeeeeeeeeeeee.mp4"]);
    expect(progress).toHaveLength(3);
    expect(progress[0]).toMatch(/^1\/3 .* uploaded$/);
    for (const [name, bytes] of Object.entries(files)) {
      expect(sha256(await objectBytes(target, name))).toBe(sha256(bytes));
      expect((await target.head(name))?.sha256).toBe(sha256(bytes));
    }
    expect(fs.existsSync(path.join(mediaDir, "media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4"))).toBe(true);

    const again = await migrateMediaToBucket({
      mediaDir,
      databasePath: process.env.DATABASE_PATH!,
      target,
      ledgerFile,
    });
    expect(again.uploaded).toEqual([]);
    expect(again.skipped.sort()).toEqual(Object.keys(files).sort());
  });

  it("sends again an object changed in the bucket since it was checked, and one whose run stopped before the ledger only is read back", async () => {
    await target.putBytes(
      "media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4",
      crypto.randomBytes(300_000),
      "video/mp4",
      "public",
    );
    const ledger = JSON.parse(fs.readFileSync(ledgerFile, "utf8")) as Record<string, unknown>;
    delete ledger["thumb-bbbbbbbbbbbbbbbbbbbbbbbb.png"];
    fs.writeFileSync(ledgerFile, JSON.stringify(ledger));
    const result = await migrateMediaToBucket({
      mediaDir,
      databasePath: process.env.DATABASE_PATH!,
      target,
      ledgerFile,
    });
    expect(result.uploaded).toEqual(["media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4"]);
    expect(result.skipped.sort()).toEqual([
      "delivery-cccccccccccccccccccccccc.mov",
      "thumb-bbbbbbbbbbbbbbbbbbbbbbbb.png",
    ]);
    expect(sha256(await objectBytes(target, "media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4"))).toBe(
      sha256(files["media-aaaaaaaaaaaaaaaaaaaaaaaa.mp4"]!),
    );
  });

  it("an object that does not read back as the file is deleted from the bucket and reported", async () => {
    fs.writeFileSync(path.join(mediaDir, "media-ffffffffffffffffffffffff.mp4"), crypto.randomBytes(5_000));
    // A bucket that hands back other bytes than it was sent (a corrupted copy).
    class Corrupting extends S3Store {
      override async readStream(): Promise<Readable> {
        return Readable.from([crypto.randomBytes(5_000)]);
      }
    }
    const corrupting = new Corrupting(target.config, mediaDir);
    const result = await migrateMediaToBucket({
      mediaDir,
      databasePath: process.env.DATABASE_PATH!,
      target: corrupting,
      ledgerFile,
    });
    expect(result.failed).toEqual(["media-ffffffffffffffffffffffff.mp4"]);
    expect(await target.head("media-ffffffffffffffffffffffff.mp4")).toBeNull();
  });
});
