// The download page's two versions of a delivered video: the original and the 720p
// phone version, either of which (or the page's player) starts the line's 24-hour window; the
// poster served by the page's link without counting; and the clean-up of what the media jobs made.
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles, mediaItems, mediaJobs, orderLines, orders } from "~/server/db/schema";
import { createContest } from "~/server/catalog/contests.server";
import { deleteUnneededDeliveryFiles } from "~/server/delivery/file-cleanup.server";
import { deliverOrder } from "~/server/delivery/order-delivery.server";
import { fileStore } from "~/server/files/store.server";
import { queueMediaJobs } from "~/server/media/jobs/queue.server";
import { claimDownload, downloadPage } from "~/server/orders/customer/downloads.server";
import { loader as downloadFileLoader } from "~/routes/storefront/download-file";
import type { VideoProbe } from "~/lib/rules/video-versions";

const ORIGINAL: VideoProbe = {
  container: "mov,mp4,m4a,3gp,3g2,mj2",
  videoCodec: "h264",
  audioCodec: "aac",
  durationMs: 184_000,
  width: 1080,
  height: 1920,
  bitrate: 8_000_000,
  rotation: 0,
};
const PHONE: VideoProbe = { ...ORIGINAL, width: 720, height: 1280, bitrate: 2_500_000 };

const bytes = (size: number, seed: string) => {
  const out = Buffer.alloc(size);
  crypto.createHash("sha256").update(seed).digest().copy(out);
  return out;
};
const stored = (prefix: string, extension: string) =>
  `${prefix}-${crypto.randomBytes(12).toString("hex")}.${extension}`;

/** A paid one-video order delivered with a file of the shop; `external` delivers a second line by URL. */
async function delivered(options: { phone?: boolean; poster?: boolean; external?: boolean } = {}) {
  const store = await fileStore();
  const storedName = stored("delivery", "mp4");
  const original = bytes(300_000, storedName);
  await store.putBytes(storedName, original, "video/mp4", "private");
  const order = db()
    .insert(orders)
    .values({
      orderNumber: String(40_000_000 + Math.floor(Math.random() * 1_000_000)),
      checkoutId: crypto.randomUUID(),
      paymentIntentId: crypto.randomUUID(),
      contestName: "春の発表会",
      customerEmail: "versions@example.jp",
      customerName: "版 花子",
      totalAmount: 6000,
      lineCount: options.external ? 2 : 1,
    })
    .returning()
    .get();
  const line = (n: number) =>
    db()
      .insert(orderLines)
      .values({
        orderId: order.id,
        lineNumber: `${order.orderNumber}-${n}`,
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
  const fileLine = line(1);
  const urlLine = options.external ? line(2) : null;
  const result = await deliverOrder(
    order.id,
    new Map(urlLine ? [[urlLine.id, "https://videos.example.jp/12.mp4"]] : []),
    new Map([
      [
        fileLine.id,
        {
          storedName,
          originalName: "12_縦.mp4",
          contentType: "video/mp4",
          size: original.length,
          video: ORIGINAL,
        },
      ],
    ]),
  );
  if (!result.ok) throw new Error(result.message);
  const fileId = db().select().from(orderLines).where(eq(orderLines.id, fileLine.id)).get()!.deliveryFileId!;
  const phone = options.phone ? await madePhoneVersion(fileId) : null;
  const poster = options.poster ? await madePoster(fileId) : null;
  return {
    pageId: result.pageId,
    lineId: fileLine.id,
    urlLineId: urlLine?.id ?? 0,
    fileId,
    storedName,
    phone,
    poster,
  };
}

/** What the phone job records (versions.server.ts), with bytes of its own in the store. */
async function madePhoneVersion(fileId: number) {
  const name = stored("phone", "mp4");
  const phone = bytes(90_000, name);
  await (await fileStore()).putBytes(name, phone, "video/mp4", "private");
  db()
    .update(deliveryFiles)
    .set({ phoneStoredName: name, phoneSize: phone.length, phoneVideo: PHONE })
    .where(eq(deliveryFiles.id, fileId))
    .run();
  return { name, bytes: phone };
}

async function madePoster(fileId: number) {
  const name = stored("poster", "jpg");
  await (await fileStore()).putBytes(name, bytes(2_000, name), "image/jpeg", "private");
  db().update(deliveryFiles).set({ posterStoredName: name }).where(eq(deliveryFiles.id, fileId)).run();
  return name;
}

const startedAt = (lineId: number) =>
  db().select().from(orderLines).where(eq(orderLines.id, lineId)).get()?.downloadStartedAt ?? null;

function fetchVideo(pageId: string, lineId: number, query = "", headers: Record<string, string> = {}) {
  return downloadFileLoader({
    request: new Request(`http://shop.test/download/${pageId}/${lineId}/vertical${query}`, { headers }),
    params: { id: pageId, lineId: String(lineId), format: "vertical" },
    context: {},
  });
}

describe("claimDownload with the video's versions", () => {
  it("the phone version counts as the download; the original stays available within the same 24 hours; after them both are refused", async () => {
    const start = Date.now();
    const { pageId, lineId, phone } = await delivered({ phone: true });
    const first = claimDownload(pageId, lineId, "vertical", "phone");
    expect(first).toMatchObject({
      ok: true,
      kind: "file",
      version: "phone",
      storedName: phone!.name,
      contentType: "video/mp4",
      fileName: "春の発表会_12_山田花子_縦_スマホ用.mp4",
    });
    const started = startedAt(lineId);
    expect(started).not.toBeNull();

    setClock(() => start + 23 * 3600_000);
    expect(claimDownload(pageId, lineId, "vertical", "original")).toMatchObject({
      ok: true,
      version: "original",
      fileName: "春の発表会_12_山田花子_縦.mp4",
    });
    expect(startedAt(lineId)).toEqual(started);

    setClock(() => start + 25 * 3600_000);
    for (const version of ["original", "phone"] as const)
      expect(claimDownload(pageId, lineId, "vertical", version)).toMatchObject({
        ok: false,
        status: 410,
        reason: "downloaded",
      });
  });

  it("the original counts as the download too, and the phone version stays available within the window", async () => {
    const start = Date.now();
    const { pageId, lineId } = await delivered({ phone: true });
    expect(claimDownload(pageId, lineId, "vertical")).toMatchObject({ ok: true, version: "original" });
    setClock(() => start + 12 * 3600_000);
    expect(claimDownload(pageId, lineId, "vertical", "phone")).toMatchObject({ ok: true, version: "phone" });
    // The window is the first request's: exactly 24 hours after it, both are refused.
    const started = startedAt(lineId)!.getTime();
    setClock(() => started + 24 * 3600_000);
    expect(claimDownload(pageId, lineId, "vertical", "phone")).toMatchObject({ status: 410 });
  });

  it("the phone version of a video without one is refused 404 in words (still being made, or none), counting nothing", async () => {
    const { pageId, lineId, urlLineId, fileId } = await delivered({ external: true });
    // Delivery queued its phone version: still being made.
    const preparing = claimDownload(pageId, lineId, "vertical", "phone");
    expect(preparing).toMatchObject({ ok: false, status: 404, reason: "phone-preparing" });
    expect(!preparing.ok && preparing.message).toContain("スマホ用の動画はまだ準備中です");
    expect(claimDownload(pageId, urlLineId, "vertical", "phone")).toMatchObject({
      status: 404,
      reason: "no-phone-version",
    });
    // Its job found the original light enough: there is none.
    db()
      .update(mediaJobs)
      .set({ status: "done", detail: "元の動画が軽いためスマホ用は作りません" })
      .where(
        and(eq(mediaJobs.subject, "delivery"), eq(mediaJobs.subjectId, fileId), eq(mediaJobs.kind, "phone")),
      )
      .run();
    expect(claimDownload(pageId, lineId, "vertical", "phone")).toEqual({
      ok: false,
      status: 404,
      reason: "no-phone-version",
      message: "この動画にはスマホ用がありません。オリジナルをダウンロードしてください。",
    });
    queueMediaJobs("delivery", fileId, ["phone"]);
    expect(startedAt(lineId)).toBeNull();
    expect(startedAt(urlLineId)).toBeNull();
    // The route says so too, and an unknown version is no video of the shop's.
    const refused = await fetchVideo(pageId, lineId, "?v=phone");
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("準備中");
    expect((await fetchVideo(pageId, lineId, "?v=large")).status).toBe(404);
    expect(startedAt(lineId)).toBeNull();
  });
});

describe("the download page's player, buttons and poster", () => {
  it("lists the poster, the duration and both versions with their real sizes; the phone version is said to be coming while its job waits", async () => {
    const { pageId, lineId, fileId } = await delivered({ external: true });
    queueMediaJobs("delivery", fileId, ["poster", "phone"]);
    const before = downloadPage(pageId)!.lines;
    expect(before.find((line) => line.id === lineId)?.video).toEqual({
      removed: false,
      hasPoster: false,
      durationMs: 184_000,
      frame: { width: 1080, height: 1920 },
      original: { resolution: "1080p", size: 300_000 },
      phone: null,
      phonePreparing: true,
    });
    // A video at a URL keeps today's buttons: nothing to say of it.
    expect(before.find((line) => line.id !== lineId)?.video).toBeNull();

    await madePoster(fileId);
    await madePhoneVersion(fileId);
    db().update(mediaJobs).set({ status: "done" }).where(eq(mediaJobs.subjectId, fileId)).run();
    expect(downloadPage(pageId)!.lines.find((line) => line.id === lineId)?.video).toMatchObject({
      hasPoster: true,
      phone: { resolution: "720p", size: 90_000 },
      phonePreparing: false,
    });
  });

  it("the player's request (play=1) is the same counted bytes, inline with Range; the buttons' are attachments under the athlete's name", async () => {
    const { pageId, lineId, phone } = await delivered({ phone: true });
    const played = await fetchVideo(pageId, lineId, "?v=phone&play=1", { Range: "bytes=0-99" });
    expect(played.status).toBe(206);
    expect(played.headers.get("Content-Disposition")).toBeNull();
    expect(played.headers.get("Cache-Control")).toBe("private, no-store");
    expect(Buffer.from(await played.arrayBuffer()).equals(phone!.bytes.subarray(0, 100))).toBe(true);
    const started = startedAt(lineId);
    expect(started).not.toBeNull();

    const saved = await fetchVideo(pageId, lineId, "?v=phone");
    const disposition = saved.headers.get("Content-Disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="video-\d+-phone\.mp4"/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1] ?? "")).toBe(
      "春の発表会_12_山田花子_縦_スマホ用.mp4",
    );
    await saved.body?.cancel();
    const original = await fetchVideo(pageId, lineId);
    expect(original.headers.get("Content-Disposition")).toContain("attachment;");
    expect(original.headers.get("Content-Length")).toBe("300000");
    await original.body?.cancel();
    expect(startedAt(lineId)).toEqual(started);
  });

  it("the poster is served by the page's own link without counting, and not by another page's id, nor once the video's time is over", async () => {
    const start = Date.now();
    const { pageId, lineId } = await delivered({ poster: true });
    const poster = await fetchVideo(pageId, lineId, "?v=poster");
    expect(poster.status).toBe(200);
    expect(poster.headers.get("Content-Type")).toBe("image/jpeg");
    expect(poster.headers.get("Cache-Control")).toBe("private, no-store");
    expect(poster.headers.get("Content-Disposition")).toBeNull();
    expect(startedAt(lineId)).toBeNull();

    const other = await delivered({ poster: true });
    expect((await fetchVideo(other.pageId, lineId, "?v=poster")).status).toBe(404);
    expect((await fetchVideo(pageId, lineId, "?v=poster&play=1")).status).toBe(200);
    // Without a poster (the job has not run): 404, not another file.
    const none = await delivered();
    expect((await fetchVideo(none.pageId, none.lineId, "?v=poster")).status).toBe(404);

    claimDownload(pageId, lineId, "vertical");
    setClock(() => start + 25 * 3600_000);
    expect((await fetchVideo(pageId, lineId, "?v=poster")).status).toBe(404);
  });
});

describe("clean-up of what the media jobs made", () => {
  it("a delivered file's poster and phone version go with its bytes; one recorded after its bytes went goes on the next run", async () => {
    const store = await fileStore();
    const { storedName, fileId, phone, poster } = await delivered({ phone: true, poster: true });
    setClock(() => Date.now() + 60 * 86_400_000);
    await deleteUnneededDeliveryFiles({ sweepLeftovers: false });
    for (const name of [storedName, phone!.name, poster!]) expect(await store.stat(name)).toBeNull();
    expect(db().select().from(deliveryFiles).where(eq(deliveryFiles.id, fileId)).get()).toMatchObject({
      posterStoredName: null,
      phoneStoredName: null,
      phoneSize: null,
    });

    // A job that read the file before it was deleted records its phone version afterwards.
    const late = await madePhoneVersion(fileId);
    const latePoster = await madePoster(fileId);
    await deleteUnneededDeliveryFiles({ sweepLeftovers: false });
    expect(await store.stat(late.name)).toBeNull();
    expect(await store.stat(latePoster)).toBeNull();
    expect(
      db().select().from(deliveryFiles).where(eq(deliveryFiles.id, fileId)).get()?.phoneStoredName,
    ).toBeNull();
  });

  it("the leftover sweep removes posters and phone versions no row knows, older than an hour; a sample's poster and what is in use stay", async () => {
    const store = await fileStore();
    const kept = await delivered({ phone: true, poster: true });
    const strays = [stored("poster", "jpg"), stored("phone", "mp4")];
    for (const name of strays) await store.putBytes(name, bytes(100, name), "video/mp4", "private");
    // A sample video's poster is known by its media row.
    const samplePoster = stored("poster", "jpg");
    await store.putBytes(samplePoster, bytes(100, samplePoster), "image/jpeg", "public");
    db()
      .insert(mediaItems)
      .values({
        contestId: createContest(`版の片付け大会${crypto.randomBytes(3).toString("hex")}`),
        storedName: stored("media", "mp4"),
        originalName: "sample.mp4",
        category: "sample",
        mediaType: "video",
        contentType: "video/mp4",
        size: 100,
        posterStoredName: samplePoster,
      })
      .run();

    // Within the hour a job may be between storing and recording: nothing goes.
    await deleteUnneededDeliveryFiles();
    for (const name of strays) expect(await store.stat(name)).not.toBeNull();

    setClock(() => Date.now() + 2 * 3600_000);
    await deleteUnneededDeliveryFiles();
    for (const name of strays) expect(await store.stat(name)).toBeNull();
    for (const name of [samplePoster, kept.phone!.name, kept.poster!, kept.storedName])
      expect(await store.stat(name)).not.toBeNull();
  });
});
