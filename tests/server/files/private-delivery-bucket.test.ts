// Delivered videos are stored private in the bucket, whichever way they come; the storefront's
// media stays public. Only the bucket keeps a Cache-Control with an object, so this file runs in
// the "s3" vitest project alone (OBJECT_STORAGE_ONLY_TESTS in vitest.config.ts). The covers' audience
// in both modes is storage-audience.test.ts; storage:migrate's, tests/scripts/delivered-files-private.test.ts.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { action as completeAction } from "~/routes/api/media/chunked-complete";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles, mediaItems } from "~/server/db/schema";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { fileStore, type FileStore } from "~/server/files/store.server";
import type { S3Store } from "~/server/files/s3-store.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { parseDeliveryForm } from "~/server/orders/admin/delivery-form.server";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { smallVideo } from "../../helpers/test-videos";

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

describe("delivered videos in the bucket", () => {
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
