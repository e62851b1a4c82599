// The storage tests: run by the "local" vitest project against the MEDIA_DIR folder, and by the
// "s3" project against a local S3-compatible server (vitest.config.ts, tests/setup.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { action as completeAction } from "~/routes/api/media/chunked-complete";
import { loader as previewLoader } from "~/routes/admin/contest/media-file";
import { loader as publicMediaLoader } from "~/routes/storefront/media-file";
import { loader as downloadFileLoader } from "~/routes/storefront/download-file";
import { setClock } from "~/server/core/clock.server";
import { env } from "~/server/core/env.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import {
  contests,
  deliveryFiles,
  mediaItems,
  mediaUploadParts,
  mediaUploads,
  orderLines,
  orders,
} from "~/server/db/schema";
import { deleteUnneededDeliveryFiles } from "~/server/delivery/file-cleanup.server";
import { coverFileNames } from "~/server/files/storage.server";
import { fileStore, type FileStore } from "~/server/files/store.server";
import { storageOrigins } from "~/server/core/env/storage-settings.server";
import { S3Store } from "~/server/files/s3-store.server";
import { attachmentDisposition } from "~/server/http/content-disposition.server";
import { documentPolicy } from "~/server/http/security-headers.server";
import { receiveCover } from "~/server/media/cover.server";
import { cleanupStaleUploads } from "~/server/media/upload-cleanup.server";
import { deliverOrder } from "~/server/delivery/order-delivery.server";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { commitSession, getSession } from "~/server/http/session.server";
import { videoBytes } from "../../helpers/test-videos";

/**
 * The local project cuts files into 256 KiB chunks, so a real video (the ~200 KB sample, padded)
 * of a chunk and a byte spans two; object storage needs 5 MiB (tests/setup.ts).
 */
process.env.UPLOAD_CHUNK_BYTES ??= String(256 * 1024);

const MODE = process.env.SHOP_TEST_STORAGE === "s3" ? "s3" : "local";
let store: FileStore;
let CHUNK = 0;
let admin = "";
let contestId = 0;

beforeAll(async () => {
  store = await fileStore();
  CHUNK = env().UPLOAD_CHUNK_BYTES;
  const user = await createUser("storage-admin@example.jp", "Storage-Password-2025", { isAdmin: true });
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", user.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  admin = (await commitSession(session)).split(";")[0] ?? "";
  contestId = createContest("保存先テスト大会");
});
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

async function storedBytes(name: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of (await store.readStream(name)) as AsyncIterable<Buffer>) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function storeUploadIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const upload of store.chunks.list()) ids.push(upload.storeUploadId);
  return ids;
}

/** What a browser gets for a stored file: the local answer, or the bucket's answer to the redirect. */
async function follow(response: Response, headers: Record<string, string> = {}): Promise<Response> {
  if (MODE === "local") return response;
  expect(response.status).toBe(302);
  return fetch(response.headers.get("Location") ?? "", { headers });
}

const api = (suffix: string) => `http://shop.test/api/video/contests/${contestId}/media/${suffix}`;

function init(fileName: string, fileSize: number, extra: Record<string, unknown> = {}) {
  return callRoute(
    initAction,
    new Request(api("chunked-init"), {
      method: "POST",
      body: JSON.stringify({
        fileName,
        fileSize,
        mediaType: "video",
        contentType: "video/mp4",
        category: "sample",
        ...extra,
      }),
      headers: { "Content-Type": "application/json", Cookie: admin },
    }),
    { id: String(contestId) },
  );
}

function sendChunk(uploadId: string, index: number, bytes: Buffer) {
  const form = new FormData();
  form.set("uploadId", uploadId);
  form.set("chunkIndex", String(index));
  form.set("chunk", new Blob([new Uint8Array(bytes)]), "blob");
  return callRoute(
    chunkAction,
    new Request(api("chunked-upload"), { method: "POST", body: form, headers: { Cookie: admin } }),
    { id: String(contestId) },
  );
}

function complete(uploadId: string) {
  return callRoute(
    completeAction,
    new Request(api("chunked-complete"), {
      method: "POST",
      body: JSON.stringify({ uploadId }),
      headers: { "Content-Type": "application/json", Cookie: admin },
    }),
    { id: String(contestId) },
  );
}

type UploadAnswer = { uploadId: string; totalChunks: number; receivedChunks: number };
const chunkOf = (bytes: Buffer, index: number) => bytes.subarray(index * CHUNK, (index + 1) * CHUNK);
const uploadRow = (uploadId: string) =>
  db().select().from(mediaUploads).where(eq(mediaUploads.id, uploadId)).get();

describe(`stored files (${MODE})`, () => {
  it("puts bytes and files, tells their size, reads them back, lists them by prefix and removes them", async () => {
    const bytes = Buffer.from("保存先のテスト".repeat(50));
    await store.putBytes("thumb-0123456789abcdef01234567.png", bytes, "image/png", "public");
    expect(await store.stat("thumb-0123456789abcdef01234567.png")).toMatchObject({ size: bytes.length });
    expect((await storedBytes("thumb-0123456789abcdef01234567.png")).equals(bytes)).toBe(true);
    expect((await store.readHead("thumb-0123456789abcdef01234567.png", 9)).equals(bytes.subarray(0, 9))).toBe(
      true,
    );

    fs.mkdirSync(store.scratchDir(), { recursive: true });
    const file = path.join(store.scratchDir(), "incoming.tmp");
    fs.writeFileSync(file, videoBytes(undefined, "put-file"));
    await store.putFile("delivery-0123456789abcdef01234567.mp4", file, "video/mp4", "private");
    expect(fs.existsSync(file)).toBe(false);
    expect(sha256(await storedBytes("delivery-0123456789abcdef01234567.mp4"))).toBe(
      sha256(videoBytes(undefined, "put-file")),
    );

    const listed: string[] = [];
    for await (const object of store.list("delivery-")) listed.push(object.name);
    expect(listed).toContain("delivery-0123456789abcdef01234567.mp4");
    expect(listed).not.toContain("thumb-0123456789abcdef01234567.png");

    await store.remove("delivery-0123456789abcdef01234567.mp4");
    await store.remove("thumb-0123456789abcdef01234567.png");
    await store.remove("thumb-0123456789abcdef01234567.png");
    expect(await store.stat("delivery-0123456789abcdef01234567.mp4")).toBeNull();
    expect(await store.readHead("thumb-0123456789abcdef01234567.png", 9)).toHaveLength(0);
  });

  it("refuses a name the shop could not have chosen before it reaches the store", async () => {
    await expect(
      store.putBytes("../../escape.txt", Buffer.from("x"), "text/plain", "public"),
    ).rejects.toThrow(/invalid stored name/);
    await expect(store.putBytes("uploads/x.mp4", Buffer.from("x"), "text/plain", "public")).rejects.toThrow(
      /invalid stored name/,
    );
  });
});

describe(`chunked uploads (${MODE})`, () => {
  it("an upload in several chunks becomes one stored file with the same SHA-256, named by its first bytes, with nothing left behind", async () => {
    const bytes = videoBytes(2 * CHUNK + 700, "whole");
    const upload = (await init("発表会.mp4", bytes.length)).data as UploadAnswer;
    expect(upload.totalChunks).toBe(3);
    for (let index = 0; index < 3; index++)
      expect((await sendChunk(upload.uploadId, index, chunkOf(bytes, index))).status).toBe(200);
    // The store's upload was begun by the first chunk, under the file's final name.
    const storeUploadId = uploadRow(upload.uploadId)?.storeUploadId ?? "";
    expect(uploadRow(upload.uploadId)?.storedName).toMatch(/^media-[a-f0-9]{24}\.mp4$/);
    expect(await storeUploadIds()).toContain(storeUploadId);

    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    const item = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.id, (done.data as { id: number }).id))
      .get();
    expect(item?.storedName).toMatch(/^media-[a-f0-9]{24}\.mp4$/);
    expect(sha256(await storedBytes(item!.storedName))).toBe(sha256(bytes));
    expect(uploadRow(upload.uploadId)).toBeUndefined();
    expect(
      db().select().from(mediaUploadParts).where(eq(mediaUploadParts.uploadId, upload.uploadId)).all(),
    ).toEqual([]);
    expect(await storeUploadIds()).not.toContain(storeUploadId);
  });

  it("resumes after a restart from what the store holds: a part stored just before a crash is sent again, a part the store lost is asked for again", async () => {
    const bytes = videoBytes(3 * CHUNK + 10, "crash");
    const upload = (await init("crash.mp4", bytes.length)).data as UploadAnswer;
    for (let index = 0; index < 2; index++) await sendChunk(upload.uploadId, index, chunkOf(bytes, index));
    // The server died after the store took chunk 2 and before the database counted it.
    const row = uploadRow(upload.uploadId)!;
    const ref = {
      uploadId: row.id,
      storedName: row.storedName!,
      storeUploadId: row.storeUploadId!,
      chunkSize: row.chunkSize,
      fileSize: row.fileSize,
      totalChunks: row.totalChunks,
    };
    const sink = await store.chunks.sink(ref, 2, CHUNK);
    await sink.write(chunkOf(bytes, 2));
    await sink.end();
    await sink.finish();
    expect(((await init("crash.mp4", bytes.length)).data as UploadAnswer).receivedChunks).toBe(2);

    // The database says more than the store holds (a part lost): the store is believed.
    db().update(mediaUploads).set({ receivedChunks: 4 }).where(eq(mediaUploads.id, row.id)).run();
    const resumed = (await init("crash.mp4", bytes.length)).data as UploadAnswer;
    // The folder holds 3 whole chunks; S3 holds 3 parts but the shop took only 2 (ETags recorded).
    expect(resumed).toMatchObject({ uploadId: upload.uploadId, receivedChunks: MODE === "s3" ? 2 : 3 });
    // Sending on from the store's count completes the same bytes.
    for (let index = resumed.receivedChunks; index < 4; index++)
      expect((await sendChunk(upload.uploadId, index, chunkOf(bytes, index))).status).toBe(200);
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    const item = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.id, (done.data as { id: number }).id))
      .get();
    expect(sha256(await storedBytes(item!.storedName))).toBe(sha256(bytes));
  });

  it("starts over from chunk 0 when the store no longer has the upload (never a 500)", async () => {
    const bytes = videoBytes(CHUNK + 50, "gone");
    const upload = (await init("gone.mp4", bytes.length)).data as UploadAnswer;
    await sendChunk(upload.uploadId, 0, chunkOf(bytes, 0));
    const row = uploadRow(upload.uploadId)!;
    await store.chunks.abort({ storedName: row.storedName!, storeUploadId: row.storeUploadId! });
    expect((await sendChunk(upload.uploadId, 1, chunkOf(bytes, 1))).status).toBe(409);
    expect((await sendChunk(upload.uploadId, 0, chunkOf(bytes, 0))).status).toBe(200);
    expect(uploadRow(upload.uploadId)?.storedName).not.toBe(row.storedName);
    expect((await sendChunk(upload.uploadId, 1, chunkOf(bytes, 1))).status).toBe(200);
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
  });

  it("a chunk of the wrong size never stands for the part: refused, and the file still completes with the right bytes", async () => {
    const bytes = videoBytes(2 * CHUNK, "sizes");
    const upload = (await init("sizes.mp4", bytes.length)).data as UploadAnswer;
    expect((await sendChunk(upload.uploadId, 0, chunkOf(bytes, 0))).status).toBe(200);
    const tooLong = Buffer.concat([chunkOf(bytes, 1), Buffer.from("extra")]);
    expect((await sendChunk(upload.uploadId, 1, tooLong)).status).toBe(413);
    expect((await sendChunk(upload.uploadId, 1, chunkOf(bytes, 1).subarray(1))).status).toBe(400);
    expect(uploadRow(upload.uploadId)?.receivedChunks).toBe(1);
    // A short re-send of a stored chunk: it must come again.
    expect((await sendChunk(upload.uploadId, 0, chunkOf(bytes, 0).subarray(5))).status).toBe(400);
    expect(((await init("sizes.mp4", bytes.length)).data as UploadAnswer).receivedChunks).toBe(0);
    for (let index = 0; index < 2; index++)
      expect((await sendChunk(upload.uploadId, index, chunkOf(bytes, index))).status).toBe(200);
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    const item = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.id, (done.data as { id: number }).id))
      .get();
    expect(sha256(await storedBytes(item!.storedName))).toBe(sha256(bytes));
  });

  it("text sent as a video is refused at completion and its stored bytes are deleted", async () => {
    const text = Buffer.from("これは動画ではありません。".repeat(Math.ceil(CHUNK / 20)));
    const upload = (await init("fake.mp4", text.length)).data as UploadAnswer;
    for (let index = 0; index < upload.totalChunks; index++)
      await sendChunk(upload.uploadId, index, chunkOf(text, index));
    const storedName = uploadRow(upload.uploadId)?.storedName ?? "";
    expect(storedName).toMatch(/^media-[a-f0-9]{24}\.upload$/);
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(415);
    expect(await store.stat(storedName)).toBeNull();
  });

  it("a delivery upload becomes a delivery file in the store", async () => {
    const bytes = videoBytes(CHUNK + 300, "delivery");
    const upload = (await init("12_縦.mp4", bytes.length, { purpose: "delivery" })).data as UploadAnswer;
    for (let index = 0; index < upload.totalChunks; index++)
      await sendChunk(upload.uploadId, index, chunkOf(bytes, index));
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    const row = db()
      .select()
      .from(deliveryFiles)
      .where(eq(deliveryFiles.id, (done.data as { id: number }).id))
      .get();
    expect(row?.storedName).toMatch(/^delivery-[a-f0-9]{24}\.mp4$/);
    expect(sha256(await storedBytes(row!.storedName))).toBe(sha256(bytes));
  });

  it("uploads untouched for 24 hours are removed from the store, and so are store uploads no row owns", async () => {
    const bytes = videoBytes(CHUNK + 1, "stale");
    const upload = (await init("stale.mp4", bytes.length)).data as UploadAnswer;
    await sendChunk(upload.uploadId, 0, chunkOf(bytes, 0));
    const stale = uploadRow(upload.uploadId)!.storeUploadId!;
    const orphan = await store.chunks.begin(
      "f".repeat(32),
      "media-0123456789abcdef01234567.mp4",
      "video/mp4",
      "public",
    );
    setClock(() => Date.now() + 25 * 3600_000);
    expect(await cleanupStaleUploads()).toBeGreaterThanOrEqual(2);
    setClock(null);
    expect(uploadRow(upload.uploadId)).toBeUndefined();
    const left = await storeUploadIds();
    expect(left).not.toContain(stale);
    expect(left).not.toContain(orphan);
  });
});

describe(`serving stored files (${MODE})`, () => {
  it("public media and the admin preview honour Range (from the folder, or by the bucket behind a redirect)", async () => {
    const bytes = videoBytes(undefined, "serve");
    const tail = `bytes=${bytes.length - 10}-`;
    const upload = (await init("serve.mp4", bytes.length)).data as UploadAnswer;
    for (let index = 0; index < upload.totalChunks; index++)
      await sendChunk(upload.uploadId, index, chunkOf(bytes, index));
    const item = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.id, ((await complete(upload.uploadId)).data as { id: number }).id))
      .get()!;

    const preview = await previewLoader({
      request: new Request(`http://shop.test/admin/contest/${contestId}/media/${item.id}`, {
        headers: { Cookie: admin, Range: "bytes=0-99" },
      }),
      params: { id: String(contestId), mediaId: String(item.id) },
      context: {},
    });
    const previewed = await follow(preview, { Range: "bytes=0-99" });
    expect(previewed.status).toBe(206);
    expect(previewed.headers.get("Content-Range")).toBe(`bytes 0-99/${bytes.length}`);
    expect(previewed.headers.get("Content-Type")).toBe("video/mp4");
    expect(Buffer.from(await previewed.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);

    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, contestId))
      .run();
    const asVisitor = await publicMediaLoader({
      request: new Request(`http://shop.test/media/${item.storedName}`, {
        headers: { Range: tail },
      }),
      params: { name: item.storedName },
      context: {},
    });
    if (MODE === "s3") {
      // One signed URL per ten-minute window: the browser's cache of it (and of this redirect) holds.
      expect(asVisitor.headers.get("Cache-Control")).toBe("public, max-age=600");
      expect(new URL(asVisitor.headers.get("Location") ?? "").searchParams.get("X-Amz-Expires")).toBe("3600");
    }
    const served = await follow(asVisitor, { Range: tail });
    expect(served.status).toBe(206);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });

  it("a cover and its storefront variants are stored, and an older cover's files are deleted", async () => {
    const cover = async (colour: string) => {
      const image = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
      const form = new FormData();
      form.set("cover", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "表紙.jpg");
      expect(
        await receiveCover(new Request("http://shop.test/cover", { method: "POST", body: form }), contestId),
      ).toMatchObject({ ok: true, width: 1920, height: 1080 });
      return db()
        .select()
        .from(mediaItems)
        .where(eq(mediaItems.contestId, contestId))
        .all()
        .filter((row) => row.category === "cover-image");
    };
    const [first] = await cover("#c8102e");
    for (const name of coverFileNames(first!.storedName)) expect(await store.stat(name)).not.toBeNull();
    const variant = await storedBytes(coverFileNames(first!.storedName)[2]!);
    expect(await sharp(variant).metadata()).toMatchObject({ format: "webp", width: 960, height: 540 });
    const [second, ...others] = await cover("#0033aa");
    expect(others).toEqual([]);
    expect(second!.storedName).not.toBe(first!.storedName);
    for (const name of coverFileNames(first!.storedName)) expect(await store.stat(name)).toBeNull();
  });
});

describe(`downloads of delivered files (${MODE})`, () => {
  async function deliveredFile() {
    const bytes = videoBytes(undefined, `download-${Math.random()}`);
    const storedName = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
    await store.putBytes(storedName, bytes, "video/mp4", "private");
    const order = db()
      .insert(orders)
      .values({
        orderNumber: String(30_000_000 + Math.floor(Math.random() * 1_000_000)),
        checkoutId: crypto.randomUUID(),
        paymentIntentId: crypto.randomUUID(),
        contestName: "春の発表会",
        customerEmail: "download@example.jp",
        customerName: "保存 花子",
        totalAmount: 3000,
        lineCount: 1,
      })
      .returning()
      .get();
    const line = db()
      .insert(orderLines)
      .values({
        orderId: order.id,
        lineNumber: `${order.orderNumber}-1`,
        contestName: "春の発表会",
        category: "A",
        athleteNumber: 12,
        athleteName: "山田 花子",
        style: "縦",
        orientation: "vertical",
        price: 3000,
      })
      .returning()
      .get();
    // What ffprobe read of the file when the order list's 納品 form stored it.
    const video = {
      container: "mov,mp4",
      videoCodec: "h264",
      audioCodec: "aac",
      durationMs: 3000,
      width: 480,
      height: 270,
      bitrate: 540_000,
      rotation: 0,
    };
    const delivered = await deliverOrder(
      order.id,
      new Map(),
      new Map([
        [
          line.id,
          { storedName, originalName: "12_縦.mp4", contentType: "video/mp4", size: bytes.length, video },
        ],
      ]),
    );
    if (!delivered.ok) throw new Error(delivered.message);
    return { bytes, storedName, line, pageId: delivered.pageId };
  }

  const download = (pageId: string, lineId: number, headers: Record<string, string> = {}) =>
    downloadFileLoader({
      request: new Request(`http://shop.test/download/${pageId}/${lineId}/vertical`, { headers }),
      params: { id: pageId, lineId: String(lineId), format: "vertical" },
      context: {},
    });

  it("counts the download when it answers, with the Japanese file name; a resume within 24 hours gets a fresh answer; after that, 410", async () => {
    const start = Date.now();
    const { bytes, line, pageId } = await deliveredFile();
    const first = await download(pageId, line.id, { Range: "bytes=0-99" });
    const started = db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()?.downloadStartedAt;
    expect(started).not.toBeNull();
    if (MODE === "s3") {
      // The bytes never pass through the shop: a signed URL that expires within minutes.
      expect(first.status).toBe(302);
      expect(first.headers.get("Cache-Control")).toBe("private, no-store");
      const signed = new URL(first.headers.get("Location") ?? "");
      expect(Number(signed.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(600);
      expect(signed.searchParams.get("response-content-disposition")).toContain("filename*=UTF-8''");
    }
    const answered = await follow(first, { Range: "bytes=0-99" });
    expect(answered.status).toBe(206);
    expect(Buffer.from(await answered.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    const disposition = answered.headers.get("Content-Disposition") ?? "";
    expect(disposition).toContain(`filename="video-${line.id}.mp4"`);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1] ?? "")).toBe(
      "春の発表会_12_山田花子_縦.mp4",
    );

    setClock(() => start + 23 * 3600_000);
    const resumed = await follow(await download(pageId, line.id, { Range: "bytes=100-" }), {
      Range: "bytes=100-",
    });
    expect(resumed.status).toBe(206);
    expect(Buffer.from(await resumed.arrayBuffer()).equals(bytes.subarray(100))).toBe(true);
    // Counted once: the window still starts at the first answer.
    expect(db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()?.downloadStartedAt).toEqual(
      started,
    );
    setClock(() => start + 25 * 3600_000);
    expect((await download(pageId, line.id)).status).toBe(410);
  });

  it("a delivered file's bytes are deleted once no download page needs them, and a delivery file no row knows is swept", async () => {
    const { storedName, pageId } = await deliveredFile();
    const orphan = `delivery-${crypto.randomBytes(12).toString("hex")}.mp4`;
    await store.putBytes(orphan, videoBytes(undefined, "orphan"), "video/mp4", "private");
    const page = db().select().from(deliveryFiles).where(eq(deliveryFiles.storedName, storedName)).get();
    expect(page).toBeDefined();
    expect(pageId).toHaveLength(22);
    setClock(() => Date.now() + 60 * 86_400_000);
    await deleteUnneededDeliveryFiles();
    setClock(null);
    expect(await store.stat(storedName)).toBeNull();
    expect(await store.stat(orphan)).toBeNull();
  });
});

describe("signed URLs", () => {
  const config = {
    bucket: "shop-media",
    prefix: "videos/",
    endpoint: "https://account.r2.cloudflarestorage.com",
    region: "auto",
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    forcePathStyle: false,
    publicBaseUrl: undefined,
  };
  const params = (url: string) => {
    const parsed = new URL(url);
    return { at: `${parsed.origin}${parsed.pathname}`, query: [...parsed.searchParams.entries()].sort() };
  };

  it("are the ones the AWS SDK's presigner makes (virtual-hosted and path-style, with a Japanese download name), without loading the SDK", async () => {
    const signingDate = new Date("2026-11-25T05:10:00Z");
    const responseHeaders = {
      ResponseContentType: "video/mp4",
      ResponseCacheControl: "private, no-store",
      ResponseContentDisposition: attachmentDisposition("video-7.mp4", "春の発表会_12_山田花子_縦.mp4"),
    };
    const [{ S3Client, GetObjectCommand }, { getSignedUrl }] = await Promise.all([
      import("@aws-sdk/client-s3"),
      import("@aws-sdk/s3-request-presigner"),
    ]);
    for (const forcePathStyle of [false, true]) {
      const bucket = { ...config, forcePathStyle };
      const store = new S3Store(bucket, process.env.MEDIA_DIR!);
      const ours = store.signedUrl(
        "delivery-0123456789abcdef01234567.mp4",
        600,
        signingDate,
        responseHeaders,
      );
      expect(store.listingIsCostly()).toBe(true);
      const client = new S3Client({
        region: bucket.region,
        endpoint: bucket.endpoint,
        forcePathStyle,
        credentials: { accessKeyId: bucket.accessKeyId, secretAccessKey: bucket.secretAccessKey },
        // As the shop's own client (s3-store.server.ts): no checksum mode in the URL.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      const sdk = await getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket.bucket,
          Key: "videos/delivery-0123456789abcdef01234567.mp4",
          ...responseHeaders,
        }),
        { expiresIn: 600, signingDate },
      );
      expect(params(ours)).toEqual(params(sdk));
    }
  });
});

describe("a CDN in front of the bucket (S3_PUBLIC_BASE_URL)", () => {
  it("serves public media, never private files (a delivered video or an admin's preview is always a signed URL)", async () => {
    const store = new S3Store(
      {
        bucket: "shop-media",
        prefix: "videos/",
        endpoint: "https://account.r2.cloudflarestorage.com",
        region: "auto",
        accessKeyId: "key",
        secretAccessKey: "secret",
        forcePathStyle: false,
        publicBaseUrl: "https://media.example.jp",
      },
      process.env.MEDIA_DIR!,
    );
    const request = new Request("http://shop.test/media/cover-0123456789abcdef01234567-w960.webp");
    const cover = await store.respond(request, "cover-0123456789abcdef01234567-w960.webp", {
      contentType: "image/webp",
      cacheControl: "public, max-age=31536000, immutable",
      audience: "public",
    });
    expect(cover.status).toBe(302);
    expect(cover.headers.get("Location")).toBe(
      "https://media.example.jp/videos/cover-0123456789abcdef01234567-w960.webp",
    );
    const video = await store.respond(request, "delivery-0123456789abcdef01234567.mp4", {
      contentType: "video/mp4",
      cacheControl: "private, no-store",
      audience: "private",
      urlLifetimeSeconds: 600,
    });
    const signed = new URL(video.headers.get("Location") ?? "");
    expect(signed.origin).toBe("https://shop-media.account.r2.cloudflarestorage.com");
    expect(signed.searchParams.get("X-Amz-Expires")).toBe("600");
    expect(video.headers.get("Cache-Control")).toBe("private, no-store");
    // Serving signs without the SDK.
    expect(store.listingIsCostly()).toBe(true);
  });
});

describe(`pages (${MODE})`, () => {
  it("allow media from the bucket and the CDN (a redirect's target is checked by the CSP too), and nothing more without them", () => {
    const policy = documentPolicy({ pathname: "/", mediaOrigins: storageOrigins(env().S3) });
    const imgSrc = /img-src ([^;]+)/.exec(policy)?.[1] ?? "";
    if (MODE === "local") expect(imgSrc).toBe("'self' data: blob:");
    else expect(imgSrc).toBe(`'self' data: blob: ${new URL(env().S3!.endpoint!).origin}`);
    expect(
      storageOrigins({
        bucket: "shop-media",
        prefix: "",
        endpoint: "https://account.r2.cloudflarestorage.com",
        region: "auto",
        accessKeyId: "k",
        secretAccessKey: "s",
        forcePathStyle: false,
        publicBaseUrl: "https://media.example.jp",
      }),
    ).toEqual(["https://shop-media.account.r2.cloudflarestorage.com", "https://media.example.jp"]);
  });
});
