// Who a stored file is for: delivered videos stored private in the bucket,
// old public ones made private by storage:migrate, and an unpublished contest's cover kept off
// the CDN. Run by the "local" vitest project and, against the fake S3, by the "s3" one
// (vitest.config.ts); the bucket's own headers are only read in the second.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { action as completeAction } from "~/routes/api/media/chunked-complete";
import { loader as publicMediaLoader } from "~/routes/storefront/media-file";
import { env } from "~/server/core/env.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests, deliveryFiles, mediaItems } from "~/server/db/schema";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { coverFileNames } from "~/server/files/storage.server";
import { fileStore, type FileStore } from "~/server/files/store.server";
import { S3Store } from "~/server/files/s3-store.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { receiveCover } from "~/server/media/cover.server";
import { parseDeliveryForm } from "~/server/orders/admin/delivery-form.server";
import { makeDeliveredFilesPrivate, migrateMediaToBucket } from "../../../scripts/storage-migrate-lib";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { startS3Server, TEST_BUCKET, TEST_S3_KEY } from "../../helpers/s3-server";
import { smallVideo } from "../../helpers/test-videos";

const MODE = process.env.SHOP_TEST_STORAGE === "s3" ? "s3" : "local";
const CDN = "https://media.example.jp";
// A CDN in front of the run's bucket; env() reads it on first use.
if (MODE === "s3") process.env.S3_PUBLIC_BASE_URL = CDN;

const PRIVATE = "private, max-age=31536000, immutable";
const PUBLIC = "public, max-age=31536000, immutable";

let store: FileStore;
let admin = "";
let contestId = 0;
let video: Buffer;

beforeAll(async () => {
  store = await fileStore();
  video = fs.readFileSync(await smallVideo());
  const user = await createUser("audience-admin@example.jp", "Audience-Password-2025", { isAdmin: true });
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", user.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  admin = (await commitSession(session)).split(";")[0] ?? "";
  contestId = createContest("公開範囲テスト大会");
});

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** The Cache-Control the bucket keeps with an object (HeadObject). */
async function storedCacheControl(name: string): Promise<string | null> {
  return (await (store as S3Store).head(name))?.cacheControl ?? null;
}

/** A copy of `bytes` in the store's scratch folder, as an upload leaves it. */
function scratchCopy(bytes: Buffer): string {
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const file = path.join(store.scratchDir(), `audience-${crypto.randomBytes(6).toString("hex")}.tmp`);
  fs.writeFileSync(file, bytes);
  return file;
}

/** A whole chunked upload through the API (one chunk: the video is smaller than a chunk). */
async function chunkedUpload(fileName: string, extra: Record<string, unknown>): Promise<number> {
  const api = (suffix: string) => `http://shop.test/api/video/contests/${contestId}/media/${suffix}`;
  const params = { id: String(contestId) };
  const json = (body: unknown) => ({
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Cookie: admin },
  });
  const init = await callRoute(
    initAction,
    new Request(api("chunked-init"), {
      ...json({ fileName, fileSize: video.length, mediaType: "video", contentType: "video/mp4", ...extra }),
    }),
    params,
  );
  const { uploadId, totalChunks } = init.data as { uploadId: string; totalChunks: number };
  expect(totalChunks).toBe(1);
  const form = new FormData();
  form.set("uploadId", uploadId);
  form.set("chunkIndex", "0");
  form.set("chunk", new Blob([new Uint8Array(video)]), "blob");
  const chunk = await callRoute(
    chunkAction,
    new Request(api("chunked-upload"), { method: "POST", body: form, headers: { Cookie: admin } }),
    params,
  );
  expect(chunk.status).toBe(200);
  const done = await callRoute(
    completeAction,
    new Request(api("chunked-complete"), json({ uploadId })),
    params,
  );
  expect(done.status).toBe(201);
  return (done.data as { id: number }).id;
}

describe.runIf(MODE === "s3")("delivered videos in the bucket", () => {
  it("are stored private whichever way they come (chunked, the 納品ファイル form, the order's 納品 form); a sample stays public", async () => {
    const chunkedId = await chunkedUpload("12_縦.mp4", { purpose: "delivery" });
    const chunked = db().select().from(deliveryFiles).where(eq(deliveryFiles.id, chunkedId)).get();
    expect(await storedCacheControl(chunked!.storedName)).toBe(PRIVATE);

    const whole = await storeDeliveryFile(contestId, scratchCopy(video), "13_横.mp4");
    if (!whole.ok) throw new Error(whole.message);
    expect(await storedCacheControl(whole.file.storedName)).toBe(PRIVATE);
    // Type and SHA-256 are kept as before.
    expect(await (store as S3Store).head(whole.file.storedName)).toMatchObject({
      contentType: "video/mp4",
      sha256: sha256(video),
    });

    const form = new FormData();
    form.set("orderId", "7");
    form.set("file-1", new Blob([new Uint8Array(video)], { type: "video/mp4" }), "video.mp4");
    const parsed = await parseDeliveryForm(
      new Request("http://shop.test/admin/orders", { method: "POST", body: form }),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(await storedCacheControl(parsed.files.get(1)!.storedName)).toBe(PRIVATE);

    const sampleId = await chunkedUpload("見本.mp4", { category: "sample" });
    const sample = db().select().from(mediaItems).where(eq(mediaItems.id, sampleId)).get();
    expect(await storedCacheControl(sample!.storedName)).toBe(PUBLIC);
  });
});

describe.runIf(MODE === "local")("npm run storage:migrate and delivered videos stored public", () => {
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

describe(`covers (${MODE})`, () => {
  async function uploadCover(): Promise<string> {
    const image = await sharp({
      create: { width: 1920, height: 1080, channels: 3, background: "#2e7d32" },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set("cover", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "表紙.jpg");
    const received = await receiveCover(
      new Request("http://shop.test/cover", { method: "POST", body: form }),
      contestId,
    );
    expect(received).toMatchObject({ ok: true });
    const row = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.contestId, contestId))
      .all()
      .find((item) => item.category === "cover-image");
    return row!.storedName;
  }

  const serve = (name: string) =>
    publicMediaLoader({
      request: new Request(`http://shop.test/media/${name}`),
      params: { name },
      context: {},
    });

  it("unpublished contest cover leaks through the CDN: until the contest is listed its cover and variants are a signed bucket URL kept by no cache, then the CDN's", async () => {
    const cover = await uploadCover();
    const names = coverFileNames(cover);
    for (const name of names) {
      const answer = await serve(name);
      if (MODE === "local") {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
        continue;
      }
      expect(answer.status).toBe(302);
      const location = new URL(answer.headers.get("Location") ?? "");
      expect(location.origin).not.toBe(CDN);
      expect(location.origin).toBe(new URL(env().S3!.endpoint!).origin);
      expect(location.searchParams.get("response-cache-control")).toBe("private, no-store");
      expect(answer.headers.get("Cache-Control")).toMatch(/^private/);
      // The bucket answers the signed URL with the bytes, not to be kept by a shared cache.
      const fetched = await fetch(location);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("Cache-Control")).toBe("private, no-store");
    }

    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, contestId))
      .run();
    for (const name of names) {
      const answer = await serve(name);
      if (MODE === "local") {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("Cache-Control")).toBe(PUBLIC);
        continue;
      }
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe(`${CDN}/${env().S3!.prefix}${name}`);
    }
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "非公開" })
      .where(eq(contests.id, contestId))
      .run();
  });
});
