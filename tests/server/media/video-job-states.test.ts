import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as content from "~/routes/admin/contest/content";
import * as delivery from "~/routes/admin/contest/delivery";
import * as posterFile from "~/routes/admin/contest/poster-file";
import { db } from "~/server/db/client.server";
import {
  deliveryFiles,
  mediaItems,
  mediaJobs,
  type MediaJobKind,
  type MediaJobSubject,
} from "~/server/db/schema";
import { fileStore } from "~/server/files/store.server";
import { queueMediaJobs } from "~/server/media/jobs/queue.server";
import type { VideoRowState } from "~/server/media/video-states.server";
import type { VideoProbe } from "~/lib/rules/video-versions";
import { mediaDir } from "../../helpers/media-dir";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, seedContest } from "../../helpers/shop";

let admin = "";
let notAdmin = "";
let shop: ReturnType<typeof seedContest>;
let other: ReturnType<typeof seedContest>;

beforeAll(async () => {
  admin = await adminCookie();
  notAdmin = await adminCookie({ isAdmin: false });
  shop = seedContest();
  other = seedContest();
});

const landscape1080: VideoProbe = {
  container: "mov,mp4,m4a,3gp,3g2,mj2",
  videoCodec: "h264",
  audioCodec: "aac",
  durationMs: 245_000,
  width: 1920,
  height: 1080,
  bitrate: 8_000_000,
  rotation: 0,
};
const portrait720: VideoProbe = { ...landscape1080, width: 720, height: 1280, bitrate: 2_400_000 };

let n = 0;
function deliveryFile(contestId: number, values: Partial<typeof deliveryFiles.$inferInsert> = {}) {
  return db()
    .insert(deliveryFiles)
    .values({
      contestId,
      storedName: `delivery-state${++n}.mp4`,
      originalName: `${n}_縦.mp4`,
      contentType: "video/mp4",
      size: 120 * 1024 * 1024,
      uploadedAt: new Date(),
      video: landscape1080,
      ...values,
    })
    .returning()
    .get();
}

/** The jobs of a video as the worker would have left them. */
function jobs(
  subject: MediaJobSubject,
  subjectId: number,
  states: Partial<Record<MediaJobKind, Partial<typeof mediaJobs.$inferInsert>>>,
) {
  const kinds = Object.keys(states) as MediaJobKind[];
  queueMediaJobs(subject, subjectId, kinds);
  for (const kind of kinds.filter((each) => Object.keys(states[each]!).length > 0))
    db()
      .update(mediaJobs)
      .set(states[kind]!)
      .where(
        and(eq(mediaJobs.subject, subject), eq(mediaJobs.subjectId, subjectId), eq(mediaJobs.kind, kind)),
      )
      .run();
}

const jobOf = (subject: MediaJobSubject, subjectId: number, kind: MediaJobKind) =>
  db()
    .select()
    .from(mediaJobs)
    .where(and(eq(mediaJobs.subject, subject), eq(mediaJobs.subjectId, subjectId), eq(mediaJobs.kind, kind)))
    .get();

const deliveryPage = (contestId = shop.contestId) => `/admin/contest/${contestId}/delivery`;
const contentPage = (contestId = shop.contestId) => `/admin/contest/${contestId}/content`;

async function deliveryRows() {
  const result = await callRoute(
    delivery.loader,
    new Request(`http://shop.test${deliveryPage()}`, { headers: { Cookie: admin } }),
    { id: String(shop.contestId) },
  );
  expect(result.status).toBe(200);
  const data = result.data as {
    processing: boolean;
    failedFiles: number;
    unmatched: { id: number; video: VideoRowState | null }[];
    matched: { id: number; video: VideoRowState | null }[];
  };
  const byId = new Map([...data.matched, ...data.unmatched].map((file) => [file.id, file.video]));
  return { processing: data.processing, failedFiles: data.failedFiles, video: (id: number) => byId.get(id) };
}

describe("納品ファイル: each file's video and processing state", () => {
  it("says 待機中, 処理中 n% with its step, 完了 with the phone version or why none, and 失敗 with the reason", async () => {
    const waiting = deliveryFile(shop.contestId);
    jobs("delivery", waiting.id, { poster: {}, phone: {} });
    const running = deliveryFile(shop.contestId);
    jobs("delivery", running.id, { poster: { status: "done" }, phone: { status: "running", progress: 37 } });
    const made = deliveryFile(shop.contestId, {
      posterStoredName: "poster-made.jpg",
      phoneStoredName: "phone-made.mp4",
      phoneSize: 12 * 1024 * 1024,
      phoneVideo: { ...landscape1080, width: 1280, height: 720 },
    });
    jobs("delivery", made.id, { poster: { status: "done" }, phone: { status: "done" } });
    const light = deliveryFile(shop.contestId, { video: portrait720 });
    jobs("delivery", light.id, {
      poster: { status: "done" },
      phone: { status: "done", detail: "元の動画が軽いためスマホ用は作りません" },
    });
    const failed = deliveryFile(shop.contestId);
    jobs("delivery", failed.id, {
      poster: { status: "done" },
      phone: { status: "failed", attempts: 4, detail: "ffmpeg が終了コード 1 で止まりました" },
    });
    const before = deliveryFile(shop.contestId, { video: null });

    const { processing, failedFiles, video } = await deliveryRows();
    expect(video(waiting.id)).toMatchObject({ label: "1080p・4:05・横", state: { words: "待機中" } });
    expect(video(running.id)?.state?.words).toBe("処理中 43%・スマホ用動画の作成（2/2）");
    expect(video(made.id)).toMatchObject({
      posterUrl: `/admin/contest/${shop.contestId}/poster/poster-made.jpg`,
      state: { status: "done", words: "完了（スマホ用 720p・12.6 MB）" },
    });
    expect(video(light.id)).toMatchObject({
      label: "720p・4:05・縦",
      state: { words: "完了（元の動画が軽いためスマホ用は作りません）" },
    });
    expect(video(failed.id)?.state).toEqual({
      status: "failed",
      words: "失敗",
      reason: "スマホ用: ffmpeg が終了コード 1 で止まりました",
      unfinished: false,
    });
    // A file delivered before videos were probed has neither facts nor jobs to show.
    expect(video(before.id)).toEqual({ label: null, posterUrl: null, state: null });
    expect(processing).toBe(true);
    // Said beside 一括納品 too.
    expect(failedFiles).toBe(1);
  });

  it("再実行 starts a failed job over; a job that has not failed, or another contest's file, is not touched", async () => {
    const failed = deliveryFile(shop.contestId);
    jobs("delivery", failed.id, {
      poster: { status: "failed", attempts: 4, detail: "動画から画像を取り出せませんでした" },
      phone: { status: "done" },
    });
    const retry = (fileId: number, cookie = admin) =>
      callRoute(
        delivery.action,
        formRequest(
          deliveryPage(),
          [
            ["intent", "retry"],
            ["fileId", String(fileId)],
          ],
          cookie,
        ),
        { id: String(shop.contestId) },
      );

    const done = await retry(failed.id);
    expect(done.status).toBe(303);
    expect(jobOf("delivery", failed.id, "poster")).toMatchObject({
      status: "waiting",
      attempts: 0,
      detail: null,
    });
    expect(jobOf("delivery", failed.id, "phone")?.status).toBe("done");
    // Its phone version is made: the file is 処理中 again, its poster waiting for the worker.
    expect((await deliveryRows()).video(failed.id)?.state?.words).toBe(
      "処理中 90%・ポスター画像の作成待ち（1/2）",
    );

    // Nothing failed any more: 再実行 again says so and changes nothing.
    const again = await retry(failed.id);
    expect(again.status).toBe(303);
    expect(jobOf("delivery", failed.id, "poster")?.status).toBe("waiting");

    const elsewhere = deliveryFile(other.contestId);
    jobs("delivery", elsewhere.id, { poster: { status: "failed", detail: "x" } });
    await retry(elsewhere.id);
    expect(jobOf("delivery", elsewhere.id, "poster")?.status).toBe("failed");
  });

  it("*retry by a non-admin*: a visitor's or a customer's 再実行 is sent to the admin login and runs nothing", async () => {
    const failed = deliveryFile(shop.contestId);
    jobs("delivery", failed.id, { phone: { status: "failed", attempts: 4, detail: "止まりました" } });
    for (const cookie of ["", notAdmin]) {
      const result = await callRoute(
        delivery.action,
        formRequest(
          deliveryPage(),
          [
            ["intent", "retry"],
            ["fileId", String(failed.id)],
          ],
          cookie || undefined,
        ),
        { id: String(shop.contestId) },
      );
      expect(result.status).toBeGreaterThanOrEqual(300);
      expect(result.status).toBeLessThan(400);
      expect(result.location).toMatch(/^\/admin-login/);
      expect(jobOf("delivery", failed.id, "phone")?.status).toBe("failed");
    }
  });

  it("削除 of a waiting file takes its poster, its phone version and its jobs with it", async () => {
    const store = await fileStore();
    for (const name of ["delivery-removed.mp4", "poster-removed.jpg", "phone-removed.mp4"])
      await store.putBytes(name, Buffer.from(name), "application/octet-stream", "private");
    const file = deliveryFile(shop.contestId, {
      storedName: "delivery-removed.mp4",
      posterStoredName: "poster-removed.jpg",
      phoneStoredName: "phone-removed.mp4",
      phoneSize: 14,
    });
    jobs("delivery", file.id, { poster: { status: "done" }, phone: { status: "done" } });

    const result = await callRoute(
      delivery.action,
      formRequest(
        deliveryPage(),
        [
          ["intent", "remove"],
          ["fileId", String(file.id)],
        ],
        admin,
      ),
      { id: String(shop.contestId) },
    );
    expect(result.status).toBe(303);
    for (const name of ["delivery-removed.mp4", "poster-removed.jpg", "phone-removed.mp4"])
      expect(fs.existsSync(path.join(mediaDir(), name))).toBe(false);
    expect(jobOf("delivery", file.id, "poster")).toBeUndefined();
    expect(jobOf("delivery", file.id, "phone")).toBeUndefined();
  });

  it("a malformed 再実行 is a 400 with a message, not a 500", async () => {
    const result = await callRoute(
      delivery.action,
      formRequest(
        deliveryPage(),
        [
          ["intent", "retry"],
          ["fileId", "abc"],
        ],
        admin,
      ),
      { id: String(shop.contestId) },
    );
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.data)).toContain("操作を読み取れませんでした");
  });
});

describe("コンテンツ管理: a video's poster and its job", () => {
  function sample(contestId: number, values: Partial<typeof mediaItems.$inferInsert> = {}) {
    return db()
      .insert(mediaItems)
      .values({
        contestId,
        storedName: `media-state${++n}.mp4`,
        originalName: `sample${n}.mp4`,
        mediaType: "video",
        contentType: "video/mp4",
        size: 5_000_000,
        category: "sample",
        video: landscape1080,
        ...values,
      })
      .returning()
      .get();
  }

  async function contentVideos() {
    const result = await callRoute(
      content.loader,
      new Request(`http://shop.test${contentPage()}`, { headers: { Cookie: admin } }),
      { id: String(shop.contestId) },
    );
    expect(result.status).toBe(200);
    return (result.data as { videos: Record<number, VideoRowState> }).videos;
  }

  it("shows the poster job's state, and 再実行 of a failed one by the admin only", async () => {
    const made = sample(shop.contestId, { posterStoredName: "poster-sample-made.jpg" });
    jobs("sample", made.id, { poster: { status: "done" } });
    const failed = sample(shop.contestId);
    jobs("sample", failed.id, {
      poster: { status: "failed", attempts: 4, detail: "動画から画像を取り出せませんでした" },
    });

    const videos = await contentVideos();
    expect(videos[made.id]).toEqual({
      label: "1080p・4:05・横",
      posterUrl: `/admin/contest/${shop.contestId}/poster/poster-sample-made.jpg`,
      state: { status: "done", words: "完了（ポスター画像）", reason: null, unfinished: false },
    });
    expect(videos[failed.id]?.state).toEqual({
      status: "failed",
      words: "失敗",
      reason: "動画から画像を取り出せませんでした",
      unfinished: false,
    });

    const retry = (cookie: string | undefined) =>
      callRoute(
        content.action,
        formRequest(
          contentPage(),
          [
            ["intent", "retry"],
            ["mediaId", String(failed.id)],
          ],
          cookie,
        ),
        { id: String(shop.contestId) },
      );
    for (const cookie of [undefined, notAdmin]) {
      const refused = await retry(cookie);
      expect(refused.location).toMatch(/^\/admin-login/);
      expect(jobOf("sample", failed.id, "poster")?.status).toBe("failed");
    }
    expect((await retry(admin)).status).toBe(303);
    expect(jobOf("sample", failed.id, "poster")?.status).toBe("waiting");
    expect((await contentVideos())[failed.id]?.state?.words).toBe("待機中");
  });

  it("deleting a sample deletes its poster file and its jobs", async () => {
    const store = await fileStore();
    await store.putBytes("poster-goes.jpg", Buffer.from("jpeg"), "image/jpeg", "public");
    await store.putBytes("media-goes.mp4", Buffer.from("mp4"), "video/mp4", "public");
    const item = sample(shop.contestId, {
      storedName: "media-goes.mp4",
      posterStoredName: "poster-goes.jpg",
    });
    jobs("sample", item.id, { poster: { status: "done" } });

    const result = await callRoute(
      content.action,
      formRequest(
        contentPage(),
        [
          ["intent", "delete"],
          ["mediaId", String(item.id)],
        ],
        admin,
      ),
      { id: String(shop.contestId) },
    );
    expect(result.status).toBe(303);
    expect(fs.existsSync(path.join(mediaDir(), "poster-goes.jpg"))).toBe(false);
    expect(jobOf("sample", item.id, "poster")).toBeUndefined();
  });
});

describe("the admin's poster file", () => {
  it("serves a poster of the contest's videos to its admins only, never another contest's", async () => {
    const store = await fileStore();
    await store.putBytes("poster-served.jpg", Buffer.from("jpeg bytes"), "image/jpeg", "private");
    deliveryFile(shop.contestId, { posterStoredName: "poster-served.jpg" });
    const get = (contestId: number, name: string, cookie = admin) =>
      callRoute(
        posterFile.loader,
        new Request(`http://shop.test/admin/contest/${contestId}/poster/${name}`, {
          headers: cookie ? { Cookie: cookie } : {},
        }),
        { id: String(contestId), name },
      );

    const served = await get(shop.contestId, "poster-served.jpg");
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toMatch(/^private/);
    expect((await get(other.contestId, "poster-served.jpg")).status).toBe(404);
    expect((await get(shop.contestId, "delivery-state1.mp4")).status).toBe(404);
    expect((await get(shop.contestId, "poster-served.jpg", notAdmin)).location).toMatch(/^\/admin-login/);
    expect((await get(shop.contestId, "poster-served.jpg", "")).location).toMatch(/^\/admin-login/);
  });
});
