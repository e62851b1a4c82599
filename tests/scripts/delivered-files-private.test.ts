// npm run storage:migrate and who its objects are for: a delivered video stored public before
// audiences is made private, the storefront's media stays public. It starts its own fake bucket, so
// it runs once, in the "local" vitest project (it is no storage*.test.ts: the "s3" project's shop
// storage is not what it reads).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "~/server/core/env.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles } from "~/server/db/schema";
import { S3Store } from "~/server/files/s3-store.server";
import { makeDeliveredFilesPrivate, migrateMediaToBucket } from "../../scripts/storage-migrate-lib";
import { startS3Server, TEST_BUCKET, TEST_S3_KEY } from "../helpers/s3-server";
import { smallVideo } from "../helpers/test-videos";

const PRIVATE = "private, max-age=31536000, immutable";
const PUBLIC = "public, max-age=31536000, immutable";
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

let contestId = 0;
let video: Buffer;

beforeAll(async () => {
  video = fs.readFileSync(await smallVideo());
  contestId = createContest("公開範囲テスト大会");
});

describe("npm run storage:migrate and delivered videos stored public", () => {
  let server: Awaited<ReturnType<typeof startS3Server>>;
  let target: S3Store;
  beforeAll(async () => {
    server = await startS3Server();
    target = new S3Store(
      {
        bucket: TEST_BUCKET,
        prefix: "audience/",
        endpoint: `http://127.0.0.1:${server.port}`,
        region: "us-east-1",
        ...TEST_S3_KEY,
        forcePathStyle: true,
        publicBaseUrl: undefined,
      },
      env().MEDIA_DIR,
    );
  });
  afterAll(() => server.stop());

  const objectSha256 = async (name: string) => {
    const hash = crypto.createHash("sha256");
    for await (const piece of (await target.readStream(name)) as AsyncIterable<Buffer>) hash.update(piece);
    return hash.digest("hex");
  };
  const deliveryRow = (storedName: string, deletedAt: Date | null = null) =>
    db()
      .insert(deliveryFiles)
      .values({
        contestId,
        storedName,
        originalName: `${storedName}.mp4`,
        contentType: "video/mp4",
        size: 1,
        uploadedAt: new Date(),
        deletedAt,
      })
      .run();

  it("makes a delivered video stored before audiences private (bytes, type and SHA-256 kept), leaves the storefront's media public, and a second run changes nothing", async () => {
    const old = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
    const sample = `media-${crypto.randomBytes(12).toString("hex")}.mp4`;
    // As the shop stored every object before: public.
    await target.putBytes(old, video, "video/mp4", "public");
    await target.putBytes(sample, video, "video/mp4", "public");
    deliveryRow(old);
    // A delivered file whose bytes were deleted: nothing to change.
    deliveryRow(`delivery-${crypto.randomBytes(12).toString("hex")}.mp4`, new Date());

    const first = await makeDeliveredFilesPrivate({ databasePath: env().DATABASE_PATH, target });
    expect(first.madePrivate).toContain(old);
    expect(await target.head(old)).toMatchObject({
      cacheControl: PRIVATE,
      contentType: "video/mp4",
      sha256: sha256(video),
      size: video.length,
    });
    expect(await objectSha256(old)).toBe(sha256(video));
    expect((await target.head(sample))?.cacheControl).toBe(PUBLIC);

    const again = await makeDeliveredFilesPrivate({ databasePath: env().DATABASE_PATH, target });
    expect(again.madePrivate).toEqual([]);
    expect(again.alreadyPrivate).toBeGreaterThanOrEqual(1);
  });

  it("copies an object too big for one CopyObject in parts, bytes unchanged", async () => {
    const big = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
    const bytes = Buffer.concat([video, crypto.randomBytes(11 * 1024 * 1024)]);
    await target.putBytes(big, bytes, "video/mp4", "public");
    const limits = { singleCopyBytes: 5 * 1024 * 1024, copyPartBytes: 5 * 1024 * 1024 };
    expect(await target.makePrivate(big, limits)).toBe("made-private");
    expect(await target.head(big)).toMatchObject({ cacheControl: PRIVATE, sha256: sha256(bytes) });
    expect(await objectSha256(big)).toBe(sha256(bytes));
    expect(await target.makePrivate(big, limits)).toBe("already-private");
    // Nothing of the copy is left under way.
    for await (const upload of target.chunks.list()) expect(upload.storedName).not.toBe(big);
  });

  it("sends MEDIA_DIR's delivered videos private and its media public", async () => {
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "audience-media-"));
    const delivered = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
    const media = `media-${crypto.randomBytes(12).toString("hex")}.mp4`;
    fs.writeFileSync(path.join(mediaDir, delivered), video);
    fs.writeFileSync(path.join(mediaDir, media), video);
    const result = await migrateMediaToBucket({
      mediaDir,
      databasePath: env().DATABASE_PATH,
      target,
      ledgerFile: path.join(mediaDir, "..", `${path.basename(mediaDir)}-ledger.json`),
    });
    expect(result.uploaded.sort()).toEqual([delivered, media].sort());
    expect((await target.head(delivered))?.cacheControl).toBe(PRIVATE);
    expect((await target.head(media))?.cacheControl).toBe(PUBLIC);
  });
});
