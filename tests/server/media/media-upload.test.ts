import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { action as completeAction } from "~/routes/api/media/chunked-complete";
import { loader as statusLoader } from "~/routes/api/media/chunked-status";
import { action as mediaAction } from "~/routes/api/media/item";
import { action as thumbnailAction } from "~/routes/api/media/thumbnail";
import { loader as thumbnailLoader } from "~/routes/api/media/public-thumbnail";
import { loader as previewLoader } from "~/routes/admin/contest/media-file";
import { loader as publicMediaLoader } from "~/routes/storefront/media-file";
import { action as contentAction } from "~/routes/admin/contest/content";
import { setClock } from "~/server/core/clock.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests, deliveryFiles, mediaItems, mediaUploads } from "~/server/db/schema";
import { parseEnv } from "~/server/core/env.server";
import { listContestMedia } from "~/server/media/public-catalogue.server";
import { listContentMedia } from "~/server/media/library.server";
import { cleanupStaleUploads } from "~/server/media/upload-cleanup.server";
import { NEW_MEDIA_ERRORS } from "~/server/media/new-media.server";
import { notPlayableMessage } from "~/server/media/probe.server";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { sessionCookie } from "../../helpers/shop";
import { commitSession, getSession } from "~/server/http/session.server";
import { videoBytes } from "../../helpers/test-videos";

// Chunks small enough that a real video (the ~200 KB sample, padded) spans a few of them; a
// limit above the files the tests send, to test it.
const CHUNK = 128 * 1024;
const MAX_UPLOAD_BYTES = 1_000_000;
process.env.UPLOAD_CHUNK_BYTES = String(CHUNK);
process.env.MAX_UPLOAD_BYTES = String(MAX_UPLOAD_BYTES);

const MEDIA = () => path.resolve(process.env.MEDIA_DIR!);
/** The local store's scratch folder, where a chunked upload's part file lives until it is complete. */
const uploadsDir = () => path.join(MEDIA(), "uploads");
let admin = "";
let contestId = 0;

beforeAll(async () => {
  const user = await createUser("media-admin@example.jp", "Media-Password-2025", { isAdmin: true });
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", user.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  admin = (await commitSession(session)).split(";")[0] ?? "";
  contestId = createContest("メディアテスト大会");
});

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");
const url = (suffix: string) => `http://shop.test/api/video/contests/${contestId}/media/${suffix}`;

function json(method: string, target: string, body: unknown, cookie = admin) {
  return new Request(target, {
    method,
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Cookie: cookie },
  });
}

function init(body: Record<string, unknown>, cookie = admin) {
  return callRoute(
    initAction,
    json(
      "POST",
      url("chunked-init"),
      { mediaType: "video", contentType: "video/mp4", category: "sample", ...body },
      cookie,
    ),
    { id: String(contestId) },
  );
}

function sendChunk(
  uploadId: string,
  chunkIndex: number,
  bytes: Buffer,
  options: { chunkFirst?: boolean } = {},
) {
  const form = new FormData();
  if (options.chunkFirst) form.set("chunk", new Blob([new Uint8Array(bytes)]), "blob");
  form.set("uploadId", uploadId);
  form.set("chunkIndex", String(chunkIndex));
  if (!options.chunkFirst) form.set("chunk", new Blob([new Uint8Array(bytes)]), "blob");
  return callRoute(
    chunkAction,
    new Request(url("chunked-upload"), { method: "POST", body: form, headers: { Cookie: admin } }),
    { id: String(contestId) },
  );
}

function complete(uploadId: string) {
  return callRoute(completeAction, json("POST", url("chunked-complete"), { uploadId }), {
    id: String(contestId),
  });
}

type UploadAnswer = { uploadId: string; chunkSize: number; totalChunks: number; receivedChunks: number };
type MediaAnswer = { id: number; originalName: string; mediaType: string; size: number; fileUrl: string };

async function uploadWhole(bytes: Buffer, fileName: string, extra: Record<string, unknown> = {}) {
  const started = await init({
    fileName,
    fileSize: bytes.length,
    totalChunks: Math.ceil(bytes.length / CHUNK),
    ...extra,
  });
  expect(started.status).toBe(200);
  const upload = started.data as UploadAnswer;
  for (let index = upload.receivedChunks; index < upload.totalChunks; index++) {
    const sent = await sendChunk(
      upload.uploadId,
      index,
      bytes.subarray(index * upload.chunkSize, (index + 1) * upload.chunkSize),
    );
    expect(sent.status).toBe(200);
  }
  return { upload, done: await complete(upload.uploadId) };
}

function storedFileOf(mediaId: number): string {
  const row = db().select().from(mediaItems).where(eq(mediaItems.id, mediaId)).get();
  return path.join(MEDIA(), row!.storedName);
}

function mediaFilesOnDisk(): string[] {
  return fs.readdirSync(MEDIA()).filter((name) => name !== "uploads");
}

describe("chunked media upload", () => {
  it("uploads a video in several chunks and stores the same bytes under a name the shop chose", async () => {
    const bytes = videoBytes(4 * CHUNK + 904, "mp4");
    const { upload, done } = await uploadWhole(bytes, "発表会.mp4");
    expect(upload.chunkSize).toBe(CHUNK);
    expect(upload.totalChunks).toBe(5);
    expect(done.status).toBe(201);
    const item = done.data as MediaAnswer;
    expect(item).toMatchObject({ originalName: "発表会.mp4", mediaType: "video", size: bytes.length });
    const stored = storedFileOf(item.id);
    expect(path.basename(stored)).toMatch(/^media-[a-f0-9]{24}\.mp4$/);
    expect(sha256(fs.readFileSync(stored))).toBe(sha256(bytes));
    // The upload is finished: no row, no part file left.
    expect(
      db().select().from(mediaUploads).where(eq(mediaUploads.id, upload.uploadId)).get(),
    ).toBeUndefined();
    expect(fs.existsSync(path.join(uploadsDir(), `${upload.uploadId}.part`))).toBe(false);
  });

  it("accepts a chunk whose fields come after it (streamed through a temporary file)", async () => {
    const bytes = videoBytes(2 * CHUNK + 500, "late-fields");
    const started = await init({ fileName: "late.mp4", fileSize: bytes.length });
    const upload = started.data as UploadAnswer;
    for (let index = 0; index < upload.totalChunks; index++) {
      expect(
        (
          await sendChunk(upload.uploadId, index, bytes.subarray(index * CHUNK, (index + 1) * CHUNK), {
            chunkFirst: true,
          })
        ).status,
      ).toBe(200);
    }
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    expect(sha256(fs.readFileSync(storedFileOf((done.data as MediaAnswer).id)))).toBe(sha256(bytes));
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith("spool-"))).toEqual([]);
  });

  it("resumes: a second init of the same file answers the same uploadId and the chunks already stored", async () => {
    const bytes = videoBytes(4 * CHUNK + 100, "resume");
    const first = (await init({ fileName: "resume.mp4", fileSize: bytes.length })).data as UploadAnswer;
    expect((await sendChunk(first.uploadId, 0, bytes.subarray(0, CHUNK))).status).toBe(200);
    expect((await sendChunk(first.uploadId, 1, bytes.subarray(CHUNK, 2 * CHUNK))).status).toBe(200);
    const again = (await init({ fileName: "resume.mp4", fileSize: bytes.length })).data as UploadAnswer;
    expect(again).toMatchObject({ uploadId: first.uploadId, receivedChunks: 2, totalChunks: 5 });
    const status = await callRoute(
      statusLoader,
      new Request(`${url("chunked-status")}?uploadId=${first.uploadId}`, { headers: { Cookie: admin } }),
      { id: String(contestId) },
    );
    expect(status.data).toMatchObject({ uploadId: first.uploadId, receivedChunks: 2 });
    // Re-sending a stored chunk is harmless.
    expect((await sendChunk(first.uploadId, 1, bytes.subarray(CHUNK, 2 * CHUNK))).status).toBe(200);
    for (let index = 2; index < 5; index++)
      expect(
        (await sendChunk(first.uploadId, index, bytes.subarray(index * CHUNK, (index + 1) * CHUNK))).status,
      ).toBe(200);
    const done = await complete(first.uploadId);
    expect(done.status).toBe(201);
    expect(sha256(fs.readFileSync(storedFileOf((done.data as MediaAnswer).id)))).toBe(sha256(bytes));
  });

  it("believes the part file over the database after a crash left it shorter", async () => {
    const bytes = videoBytes(3 * CHUNK, "crash");
    const upload = (await init({ fileName: "crash.mp4", fileSize: bytes.length })).data as UploadAnswer;
    for (let index = 0; index < 2; index++)
      await sendChunk(upload.uploadId, index, bytes.subarray(index * CHUNK, (index + 1) * CHUNK));
    fs.truncateSync(path.join(uploadsDir(), `${upload.uploadId}.part`), CHUNK + CHUNK / 2);
    expect(
      ((await init({ fileName: "crash.mp4", fileSize: bytes.length })).data as UploadAnswer).receivedChunks,
    ).toBe(1);
  });

  it("takes the same chunk sent twice at once (a retry racing the first try) one after the other", async () => {
    const bytes = videoBytes(2 * CHUNK, "race");
    const upload = (await init({ fileName: "race.mp4", fileSize: bytes.length })).data as UploadAnswer;
    const both = await Promise.all([
      sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK)),
      sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK)),
    ]);
    expect(both.map((result) => result.status)).toEqual([200, 200]);
    expect((await sendChunk(upload.uploadId, 1, bytes.subarray(CHUNK))).status).toBe(200);
    const done = await complete(upload.uploadId);
    expect(sha256(fs.readFileSync(storedFileOf((done.data as MediaAnswer).id)))).toBe(sha256(bytes));
  });

  it("starts over from chunk 0 when the part file has gone (never a 500)", async () => {
    const bytes = videoBytes(2 * CHUNK, "gone");
    const upload = (await init({ fileName: "gone.mp4", fileSize: bytes.length })).data as UploadAnswer;
    await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK));
    fs.rmSync(path.join(uploadsDir(), `${upload.uploadId}.part`));
    expect((await sendChunk(upload.uploadId, 1, bytes.subarray(CHUNK))).status).toBe(409);
    expect((await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK))).status).toBe(200);
    expect((await sendChunk(upload.uploadId, 1, bytes.subarray(CHUNK))).status).toBe(200);
    const done = await complete(upload.uploadId);
    expect(done.status).toBe(201);
    expect(sha256(fs.readFileSync(storedFileOf((done.data as MediaAnswer).id)))).toBe(sha256(bytes));
  });

  it("refuses a gap, an oversize chunk, a short chunk and completing early", async () => {
    const bytes = videoBytes(3 * CHUNK + 928, "gaps");
    const upload = (await init({ fileName: "gaps.mp4", fileSize: bytes.length })).data as UploadAnswer;
    const gap = await sendChunk(upload.uploadId, 2, bytes.subarray(2 * CHUNK, 3 * CHUNK));
    expect(gap.status).toBe(409);
    expect(gap.data).toMatchObject({ message: "チャンク 0 から順に送ってください" });
    const oversize = await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK + 476));
    expect(oversize.status).toBe(413);
    const short = await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK - 24));
    expect(short.status).toBe(400);
    const early = await complete(upload.uploadId);
    expect(early.status).toBe(409);
    expect(
      ((await init({ fileName: "gaps.mp4", fileSize: bytes.length })).data as UploadAnswer).receivedChunks,
    ).toBe(0);
    // A wrong-sized re-send of a stored chunk has overwritten it: it must come again.
    expect((await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK))).status).toBe(200);
    expect((await sendChunk(upload.uploadId, 1, bytes.subarray(CHUNK, 2 * CHUNK))).status).toBe(200);
    expect((await sendChunk(upload.uploadId, 0, bytes.subarray(0, CHUNK + 476))).status).toBe(413);
    expect(
      ((await init({ fileName: "gaps.mp4", fileSize: bytes.length })).data as UploadAnswer).receivedChunks,
    ).toBe(0);
    const unknown = await sendChunk("0".repeat(32), 0, bytes.subarray(0, CHUNK));
    expect(unknown.status).toBe(404);
  });

  it("stores a file named ../../x under a shop-chosen name and writes nothing outside MEDIA_DIR", async () => {
    const outside = path.resolve(MEDIA(), "..", "..", "x");
    const bytes = videoBytes(2 * CHUNK - 500, "traversal");
    const { done } = await uploadWhole(bytes, "../../x");
    expect(done.status).toBe(201);
    const item = done.data as MediaAnswer;
    expect(item.originalName).toBe("x");
    const stored = storedFileOf(item.id);
    expect(path.dirname(stored)).toBe(MEDIA());
    expect(path.basename(stored)).toMatch(/^media-[a-f0-9]{24}\.mp4$/);
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.existsSync(path.resolve(MEDIA(), "..", "x"))).toBe(false);
  });

  it("refuses text bytes sent as video/mp4 at complete, and removes them", async () => {
    const text = Buffer.from("これは動画ではありません。".repeat(100));
    const before = mediaFilesOnDisk().length;
    const { upload, done } = await uploadWhole(text, "fake.mp4");
    expect(done.status).toBe(415);
    expect((done.data as { message: string }).message).toBe(NEW_MEDIA_ERRORS.notMedia("fake.mp4"));
    expect(mediaFilesOnDisk().length).toBe(before);
    expect(fs.existsSync(path.join(uploadsDir(), `${upload.uploadId}.part`))).toBe(false);
  });

  it("refuses an image sent as a video (mediaType must match the bytes)", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366ff" } })
      .png()
      .toBuffer();
    const { done } = await uploadWhole(png, "image.mp4");
    expect(done.status).toBe(415);
    const image = await uploadWhole(png, "image.png", { mediaType: "image", contentType: "image/png" });
    expect(image.done.status).toBe(201);
    expect(image.done.data).toMatchObject({
      mediaType: "image",
      contentType: "image/png",
      width: 40,
      height: 30,
    });
  });

  it("refuses a file over MAX_UPLOAD_BYTES at init, and a non-media content type", async () => {
    const big = await init({ fileName: "big.mp4", fileSize: MAX_UPLOAD_BYTES + 1 });
    expect(big.status).toBe(413);
    expect((big.data as { message: string }).message).toContain("ファイルが大きすぎます");
    const text = await init({ fileName: "notes.txt", fileSize: 10, contentType: "text/plain" });
    expect(text.status).toBe(422);
    expect(text.data).toMatchObject({
      message: "動画または画像ファイルを選択してください",
      fields: { contentType: ["動画または画像ファイルを選択してください"] },
    });
  });

  it("answers 401 JSON to anyone but an admin", async () => {
    const visitor = await sessionCookie({});
    const answer = await init({ fileName: "x.mp4", fileSize: 10 }, visitor);
    expect(answer.status).toBe(401);
    const chunk = await callRoute(
      chunkAction,
      new Request(url("chunked-upload"), { method: "POST", body: new FormData() }),
      { id: String(contestId) },
    );
    expect(chunk.status).toBe(401);
  });

  it("cleans up uploads nobody touched for 24 hours", async () => {
    const upload = (await init({ fileName: "stale.mp4", fileSize: 3000 })).data as UploadAnswer;
    const part = path.join(uploadsDir(), `${upload.uploadId}.part`);
    setClock(() => Date.now() + 25 * 60 * 60 * 1000);
    try {
      expect(await cleanupStaleUploads()).toBeGreaterThanOrEqual(1);
    } finally {
      setClock(null);
    }
    expect(fs.existsSync(part)).toBe(false);
    expect(
      db().select().from(mediaUploads).where(eq(mediaUploads.id, upload.uploadId)).get(),
    ).toBeUndefined();
  });
});

describe("plain form upload (JavaScript off)", () => {
  function formPost(fields: [string, string | Blob, string?][]) {
    const form = new FormData();
    for (const [name, value, fileName] of fields) {
      if (typeof value === "string") form.append(name, value);
      else form.append(name, value, fileName);
    }
    return callRoute(
      contentAction,
      new Request(`http://shop.test/admin/contest/${contestId}/content`, {
        method: "POST",
        body: form,
        headers: { Cookie: admin },
      }),
      { id: String(contestId) },
    );
  }

  it("streams the file to disk, checks its bytes and redirects with a toast", async () => {
    const bytes = videoBytes(undefined, "form");
    const result = await formPost([
      ["file", new Blob([new Uint8Array(bytes)], { type: "video/mp4" }), "フォーム.mp4"],
    ]);
    expect(result.status).toBe(303);
    const item = listContentMedia(contestId).find((media) => media.originalName === "フォーム.mp4");
    expect(item).toBeDefined();
    expect(sha256(fs.readFileSync(storedFileOf(item!.id)))).toBe(sha256(bytes));
  });

  it("shows an error beside the field for no file, a spoofed type and a file over the limit", async () => {
    const none = await formPost([["file", new Blob([]), ""]]);
    expect(none.status).toBe(400);
    expect(none.data).toMatchObject({ uploadError: "ファイルを選択してください" });
    const spoofed = await formPost([
      ["file", new Blob(["not a video at all"], { type: "video/mp4" }), "spoof.mp4"],
    ]);
    expect(spoofed.status).toBe(415);
    // Named, in the same words as with JavaScript (the chunked upload's refusal above).
    expect(spoofed.data).toMatchObject({ uploadError: NEW_MEDIA_ERRORS.notMedia("spoof.mp4") });
    const big = await formPost([
      [
        "file",
        new Blob([new Uint8Array(videoBytes(MAX_UPLOAD_BYTES + 1, "big"))], { type: "video/mp4" }),
        "big.mp4",
      ],
    ]);
    expect(big.status).toBe(413);
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith("form-"))).toEqual([]);
  });
});

/** The size of each video the media operations test works on. */
const OPS_VIDEO_BYTES = 250_000;

describe("media operations", () => {
  let ids: number[] = [];
  let opsContest = 0;

  beforeAll(async () => {
    const saved = contestId;
    opsContest = createContest("並べ替えテスト大会");
    contestId = opsContest;
    ids = [];
    for (const name of ["a.mp4", "b.mp4", "c.mp4"])
      ids.push(((await uploadWhole(videoBytes(OPS_VIDEO_BYTES, name), name)).done.data as MediaAnswer).id);
    contestId = saved;
  });

  const mediaUrl = (mediaId: number, suffix = "") =>
    `http://shop.test/api/video/contests/${opsContest}/media/${mediaId}${suffix}`;
  const names = () => listContentMedia(opsContest).map((item) => item.originalName);

  it("PATCH displayOrder swaps the item with the one at that position and rewrites all orders", async () => {
    const moved = await callRoute(mediaAction, json("PATCH", mediaUrl(ids[2]!), { displayOrder: 1 }), {
      id: String(opsContest),
      mediaId: String(ids[2]),
    });
    expect(moved.status).toBe(200);
    expect(names()).toEqual(["a.mp4", "c.mp4", "b.mp4"]);
    expect(listContentMedia(opsContest).map((item) => item.displayOrder)).toEqual([0, 1, 2]);
    const bad = await callRoute(mediaAction, json("PATCH", mediaUrl(ids[2]!), { displayOrder: -1 }), {
      id: String(opsContest),
      mediaId: String(ids[2]),
    });
    expect(bad.status).toBe(422);
    expect(bad.data).toMatchObject({ fields: { displayOrder: [expect.any(String)] } });
  });

  it("the ↑/↓ form swaps with the neighbour", async () => {
    const form = new URLSearchParams({ intent: "move", mediaId: String(ids[0]), direction: "down" });
    const result = await callRoute(
      contentAction,
      new Request(`http://shop.test/admin/contest/${opsContest}/content`, {
        method: "POST",
        body: form,
        headers: { Cookie: admin, "Content-Type": "application/x-www-form-urlencoded" },
      }),
      { id: String(opsContest) },
    );
    expect(result.status).toBe(303);
    expect(names()).toEqual(["c.mp4", "a.mp4", "b.mp4"]);
  });

  it("attaches a 1080×1080 thumbnail, refuses 1081×1080 with サイズエラー, serves and removes it", async () => {
    const mediaId = ids[0]!;
    const wrong = await sharp({ create: { width: 1081, height: 1080, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const refused = await callRoute(
      thumbnailAction,
      json("POST", mediaUrl(mediaId, "/thumbnail"), {
        data: `data:image/png;base64,${wrong.toString("base64")}`,
        originalName: "w.png",
        contentType: "image/png",
      }),
      {
        id: String(opsContest),
        mediaId: String(mediaId),
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ error: "サイズエラー" });
    expect((refused.data as { message: string }).message).toContain("1081×1080");

    const right = await sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#00aa00" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set("thumbnail", new Blob([new Uint8Array(right)], { type: "image/jpeg" }), "t.jpg");
    const attached = await callRoute(
      thumbnailAction,
      new Request(mediaUrl(mediaId, "/thumbnail"), {
        method: "POST",
        body: form,
        headers: { Cookie: admin },
      }),
      {
        id: String(opsContest),
        mediaId: String(mediaId),
      },
    );
    expect(attached.status).toBe(200);
    const thumbUrl = (attached.data as { thumbnailUrl: string }).thumbnailUrl;
    expect(thumbUrl).toMatch(new RegExp(`^/api/video/media/thumbnail/${opsContest}/${mediaId}\\?v=`));
    const served = await callRoute(
      thumbnailLoader,
      new Request(`http://shop.test${thumbUrl}`, { headers: { Cookie: admin } }),
      { contestId: String(opsContest), mediaId: String(mediaId) },
    );
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toContain("max-age=31536000");
    // The contest is not on sale: a visitor does not get it.
    const visitor = await callRoute(thumbnailLoader, new Request(`http://shop.test${thumbUrl}`), {
      contestId: String(opsContest),
      mediaId: String(mediaId),
    });
    expect(visitor.status).toBe(404);

    // Once the contest is on sale, a sample's thumbnail is public (the storefront shows it).
    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, opsContest))
      .run();
    const onSale = await callRoute(thumbnailLoader, new Request(`http://shop.test${thumbUrl}`), {
      contestId: String(opsContest),
      mediaId: String(mediaId),
    });
    expect(onSale.status).toBe(200);
    expect(onSale.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(
      listContestMedia(opsContest, { isAdmin: false })?.find((item) => item.id === mediaId)?.thumbnailUrl,
    ).toBe(thumbUrl);
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "非公開" })
      .where(eq(contests.id, opsContest))
      .run();

    const thumbName = db().select().from(mediaItems).where(eq(mediaItems.id, mediaId)).get()!
      .thumbnailStoredName!;
    const removed = await callRoute(
      thumbnailAction,
      new Request(mediaUrl(mediaId, "/thumbnail"), { method: "DELETE", headers: { Cookie: admin } }),
      { id: String(opsContest), mediaId: String(mediaId) },
    );
    expect(removed.status).toBe(200);
    expect(fs.existsSync(path.join(MEDIA(), thumbName))).toBe(false);
  });

  it("serves the file to admins with Range", async () => {
    const mediaId = ids[1]!;
    const partial = await callRoute(
      previewLoader,
      new Request(`http://shop.test/admin/contest/${opsContest}/media/${mediaId}`, {
        headers: { Cookie: admin, Range: "bytes=0-99" },
      }),
      {
        id: String(opsContest),
        mediaId: String(mediaId),
      },
    );
    expect(partial.status).toBe(206);
    expect(partial.headers.get("Content-Range")).toBe(`bytes 0-99/${OPS_VIDEO_BYTES}`);
    expect(partial.headers.get("Cache-Control")).toContain("private");
    const visitor = await callRoute(
      previewLoader,
      new Request(`http://shop.test/admin/contest/${opsContest}/media/${mediaId}`),
      { id: String(opsContest), mediaId: String(mediaId) },
    );
    expect(visitor.status).toBe(302);
  });

  it("DELETE removes the item and its file, and closes the gap in the order", async () => {
    const mediaId = ids[1]!;
    const file = storedFileOf(mediaId);
    expect(fs.existsSync(file)).toBe(true);
    const deleted = await callRoute(
      mediaAction,
      new Request(mediaUrl(mediaId), { method: "DELETE", headers: { Cookie: admin } }),
      { id: String(opsContest), mediaId: String(mediaId) },
    );
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(listContentMedia(opsContest).map((item) => item.displayOrder)).toEqual([0, 1]);
    const again = await callRoute(
      mediaAction,
      new Request(mediaUrl(mediaId), { method: "DELETE", headers: { Cookie: admin } }),
      { id: String(opsContest), mediaId: String(mediaId) },
    );
    expect(again.status).toBe(404);
  });
});

describe("public media", () => {
  it("a .gif uploaded to the content tab is served at its public address as image/gif", async () => {
    const saved = contestId;
    contestId = createContest("GIF公開テスト大会");
    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, contestId))
      .run();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#ff0000" } })
      .gif()
      .toBuffer();
    const { done } = await uploadWhole(gif, "アニメ.gif", { mediaType: "image", contentType: "image/gif" });
    contestId = saved;
    expect(done.status).toBe(201);
    const row = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.id, (done.data as MediaAnswer).id))
      .get();
    expect(row?.storedName).toMatch(/\.gif$/);
    const served = await callRoute(
      publicMediaLoader,
      new Request(`http://shop.test/media/${row!.storedName}`),
      { name: row!.storedName },
    );
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/gif");
  });
});

describe("a delivery file through the chunked upload (purpose: delivery)", () => {
  it("becomes a delivery file of the contest, not a media item, with the same resume and checks", async () => {
    const bytes = videoBytes(2 * CHUNK + 1000, "delivery");
    const mediaBefore = listContentMedia(contestId).length;
    const { upload, done } = await uploadWhole(bytes, "12_縦.mp4", { purpose: "delivery" });
    expect(upload.totalChunks).toBe(3);
    expect(done.status).toBe(201);
    const answer = done.data as { id: number; originalName: string; size: number };
    expect(answer).toMatchObject({ originalName: "12_縦.mp4", size: bytes.length });
    const row = db().select().from(deliveryFiles).where(eq(deliveryFiles.id, answer.id)).get();
    expect(row).toMatchObject({ contestId, contentType: "video/mp4", retiredAt: null });
    expect(sha256(fs.readFileSync(path.join(MEDIA(), row!.storedName)))).toBe(sha256(bytes));
    expect(listContentMedia(contestId)).toHaveLength(mediaBefore);
  });

  it("a delivery upload and a media upload of the same file are two uploads, not one resumed", async () => {
    const body = { fileName: "same.mp4", fileSize: 2 * CHUNK, totalChunks: 2 };
    const media = (await init(body)).data as UploadAnswer;
    const delivery = (await init({ ...body, purpose: "delivery" })).data as UploadAnswer;
    expect(delivery.uploadId).not.toBe(media.uploadId);
  });

  it("refuses an image for delivery (422) and bytes that are not a video (415)", async () => {
    const image = await init({
      fileName: "a.png",
      fileSize: 10,
      mediaType: "image",
      contentType: "image/png",
      purpose: "delivery",
    });
    expect(image.status).toBe(422);
    expect(image.data).toMatchObject({
      message: "納品ファイルは動画（MP4・MOV・WebM）を選択してください",
      fields: { mediaType: ["納品ファイルは動画（MP4・MOV・WebM）を選択してください"] },
    });
    const { done } = await uploadWhole(Buffer.from("x".repeat(1500)), "13_縦.mp4", { purpose: "delivery" });
    expect(done.status).toBe(415);
    // In ffprobe's words and naming the file, as the plain form says it.
    expect(done.data).toMatchObject({ message: notPlayableMessage("13_縦.mp4") });
  });
});

describe("configuration", () => {
  it("UPLOAD_CHUNK_BYTES defaults to the spec's 50 MiB and a bad value names the variable", () => {
    expect(parseEnv({}).UPLOAD_CHUNK_BYTES).toBe(52_428_800);
    expect(parseEnv({ UPLOAD_CHUNK_BYTES: "65536" }).UPLOAD_CHUNK_BYTES).toBe(65_536);
    expect(() => parseEnv({ UPLOAD_CHUNK_BYTES: "12" })).toThrow(/UPLOAD_CHUNK_BYTES/);
  });
});
