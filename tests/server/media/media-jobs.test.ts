import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles, mediaJobs } from "~/server/db/schema";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { fileStore } from "~/server/files/store.server";
import {
  claimNextJob,
  failJob,
  JOB_LEASE_MS,
  MAX_JOB_ATTEMPTS,
  queueMediaJobs,
  releaseJob,
  retryFailedJob,
  WORKER_ID,
} from "~/server/media/jobs/queue.server";
import { durationLabel } from "~/lib/rules/video-versions";
import { FfmpegError } from "~/server/media/jobs/ffmpeg.server";
import { runMediaJob } from "~/server/media/jobs/versions.server";
import { probeVideo } from "~/server/media/probe.server";
import { parseDeliveryForm } from "~/server/orders/admin/delivery-form.server";
import { seedContest } from "../../helpers/shop";
import {
  landscapeVideo,
  mp4HeaderThenHtml,
  portraitVideo,
  rotatedIphoneVideo,
  silentVideo,
  smallVideo,
} from "../../helpers/test-videos";

let contestId = 0;
beforeAll(() => {
  contestId = seedContest().contestId;
});

/** A copy in the scratch folder, as an upload leaves it (storing consumes the file). */
async function uploaded(source: string): Promise<string> {
  const store = await fileStore();
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const copy = path.join(
    store.scratchDir(),
    `test-${Math.random().toString(36).slice(2)}${path.extname(source)}`,
  );
  fs.copyFileSync(source, copy);
  return copy;
}

/** Runs every due job of this process to the end, as the worker does, and answers their rows. */
async function runDueJobs() {
  for (let job = claimNextJob(); job; job = claimNextJob()) {
    const detail = await runMediaJob(job, {
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    db()
      .update(mediaJobs)
      .set({ status: "done", detail, claimedBy: null })
      .where(eq(mediaJobs.id, job.id))
      .run();
  }
}

async function deliver(source: string, name = path.basename(source)) {
  const stored = await storeDeliveryFile(contestId, await uploaded(source), name);
  if (!stored.ok) throw new Error(stored.message);
  await runDueJobs();
  return db().select().from(deliveryFiles).where(eq(deliveryFiles.id, stored.file.id)).get()!;
}

async function storedProbe(storedName: string) {
  const store = await fileStore();
  return store.withLocalCopy(storedName, (file) => probeVideo({ source: file, kind: "mp4" }));
}

describe("ffprobe's reading of an upload", () => {
  it("reads a 1080p export: container, codecs, duration, frame and bitrate", async () => {
    expect(await probeVideo({ source: await landscapeVideo(), kind: "mp4" })).toMatchObject({
      videoCodec: "h264",
      audioCodec: "aac",
      width: 1920,
      height: 1080,
      rotation: 0,
      durationMs: expect.closeTo(3000, -2) as number,
      bitrate: expect.any(Number) as number,
    });
  });

  it("reads an iPhone's portrait HEVC .mov as shown: taller than wide, its rotation kept", async () => {
    const video = await probeVideo({ source: await rotatedIphoneVideo(), kind: "mov" });
    expect(video).toMatchObject({ videoCodec: "hevc", width: 1080, height: 1920 });
    expect([90, 270]).toContain(video?.rotation);
  });

  it("MP4 header then HTML: ffprobe finds no video, and the delivery file is refused by name", async () => {
    expect(await probeVideo({ source: await mp4HeaderThenHtml(), kind: "mp4" })).toBeNull();
    const refused = await storeDeliveryFile(contestId, await uploaded(await mp4HeaderThenHtml()), "kids.mp4");
    expect(refused).toMatchObject({
      ok: false,
      status: 415,
      message: expect.stringContaining("「kids.mp4」"),
    });
    expect(db().select().from(deliveryFiles).where(eq(deliveryFiles.originalName, "kids.mp4")).all()).toEqual(
      [],
    );
  });
});

describe("the versions of a delivered video", () => {
  it("a 1080p landscape video gets a poster and a 720p H.264 phone version, smaller, with its row's reading", async () => {
    const file = await deliver(await landscapeVideo());
    expect(file.video).toMatchObject({ width: 1920, height: 1080 });
    expect(file.posterStoredName).toMatch(/^poster-[a-f0-9]+\.jpg$/);
    expect(file.phoneStoredName).toMatch(/^phone-[a-f0-9]+\.mp4$/);
    const phone = await storedProbe(file.phoneStoredName!);
    expect(phone).toMatchObject({ videoCodec: "h264", audioCodec: "aac", width: 1280, height: 720 });
    expect(file.phoneVideo).toMatchObject({ width: 1280, height: 720 });
    expect(file.phoneSize).toBeLessThan(file.size);
    expect((await (await fileStore()).stat(file.phoneStoredName!))?.size).toBe(file.phoneSize);
  });

  it("縦 stays portrait: 1080×1920 becomes 720×1280, and an iPhone's rotated HEVC becomes upright H.264", async () => {
    for (const source of [await portraitVideo(), await rotatedIphoneVideo()]) {
      const file = await deliver(source);
      expect(await storedProbe(file.phoneStoredName!)).toMatchObject({
        videoCodec: "h264",
        width: 720,
        height: 1280,
        rotation: 0,
      });
    }
  });

  it("an original already light (640×360 H.264) gets no phone version, and the job says why", async () => {
    const file = await deliver(await smallVideo());
    expect(file.phoneStoredName).toBeNull();
    expect(file.posterStoredName).not.toBeNull();
    const job = db()
      .select()
      .from(mediaJobs)
      .where(eq(mediaJobs.subjectId, file.id))
      .all()
      .find((row) => row.kind === "phone" && row.subject === "delivery");
    expect(job?.detail).toBe("元の動画が軽いためスマホ用は作りません");
  });

  it("a 1080p video without sound gets a phone version without sound", async () => {
    const silent = path.join((await fileStore()).scratchDir(), "silent-1080p.mp4");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", await landscapeVideo(), "-an", "-c", "copy", silent]);
    const file = await deliver(silent);
    expect(await storedProbe(file.phoneStoredName!)).toMatchObject({ videoCodec: "h264", audioCodec: null });
    // A silent 720p export at a low rate is already light.
    expect((await deliver(await silentVideo())).phoneStoredName).toBeNull();
  });
});

describe("the queue", () => {
  const job = (subjectId: number) =>
    db()
      .select()
      .from(mediaJobs)
      .where(eq(mediaJobs.subjectId, subjectId))
      .all()
      .find((row) => row.subject === "sample")!;

  it("gives a job to one claim only, retries a failed try later, and fails it after the last try", () => {
    const start = Date.now();
    setClock(() => start);
    queueMediaJobs("sample", 900_001, ["poster"]);
    const claimed = claimNextJob();
    expect(claimed).toMatchObject({
      subjectId: 900_001,
      status: "running",
      claimedBy: WORKER_ID,
      attempts: 1,
    });
    expect(claimNextJob()).toBeUndefined();
    expect(failJob(claimed!, "ffmpeg: broken")).toBe("retry");
    expect(job(900_001)).toMatchObject({ status: "waiting", detail: "ffmpeg: broken" });
    // Not before its back-off.
    expect(claimNextJob()).toBeUndefined();
    for (let attempt = 2; attempt <= MAX_JOB_ATTEMPTS; attempt++) {
      setClock(() => start + attempt * 24 * 3600_000);
      const again = claimNextJob()!;
      expect(again.attempts).toBe(attempt);
      failJob(again, "ffmpeg: broken");
    }
    expect(job(900_001).status).toBe("failed");
    expect(retryFailedJob("sample", 900_001, "poster")).toBe(true);
    expect(job(900_001)).toMatchObject({ status: "waiting", attempts: 0, detail: null });
    expect(retryFailedJob("sample", 900_001, "poster")).toBe(false);
    releaseJob(claimNextJob()!.id);
    expect(job(900_001)).toMatchObject({ status: "waiting", attempts: 0 });
    db().delete(mediaJobs).run();
  });

  it("takes a poster before phone versions queued earlier (a second's work, not kept behind minutes of it)", () => {
    queueMediaJobs("delivery", 900_003, ["phone"]);
    queueMediaJobs("sample", 900_004, ["poster"]);
    expect(claimNextJob()).toMatchObject({ kind: "poster", subjectId: 900_004 });
    expect(claimNextJob()).toMatchObject({ kind: "phone", subjectId: 900_003 });
    db().delete(mediaJobs).run();
  });

  it("fails at once, in Japanese, a job whose original is gone from the store (trying again cannot help)", async () => {
    const stored = await storeDeliveryFile(contestId, await uploaded(await smallVideo()), "消えた.mp4");
    if (!stored.ok) throw new Error(stored.message);
    await (await fileStore()).remove(stored.file.storedName);
    const claimed = claimNextJob()!;
    const error = await runMediaJob(claimed, {
      signal: new AbortController().signal,
      onProgress: () => undefined,
    }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(FfmpegError);
    expect(error).toMatchObject({
      final: true,
      message: "元の動画が保存先に見つかりません。ファイルを差し替えてください",
    });
    expect(failJob(claimed, (error as Error).message, true)).toBe("failed");
    db().delete(mediaJobs).run();
  });

  it("takes back a job whose worker died: at once when it was a process of this machine, else after the lease", () => {
    const start = Date.now();
    setClock(() => start);
    queueMediaJobs("sample", 900_002, ["poster"]);
    const claimed = claimNextJob()!;
    // A worker on another machine: only its lease tells.
    db().update(mediaJobs).set({ claimedBy: "other-host:123:abc" }).where(eq(mediaJobs.id, claimed.id)).run();
    expect(claimNextJob()).toBeUndefined();
    setClock(() => start + JOB_LEASE_MS + 1);
    expect(claimNextJob()).toMatchObject({ id: claimed.id, attempts: 2 });
    // A process of this machine that no longer runs (pid 2^22 + 1 is past Linux's highest).
    setClock(() => start);
    const host = WORKER_ID.split(":")[0];
    db()
      .update(mediaJobs)
      .set({ claimedBy: `${host}:4194305:dead`, claimedUntil: new Date(start + JOB_LEASE_MS) })
      .where(eq(mediaJobs.id, claimed.id))
      .run();
    expect(claimNextJob()).toMatchObject({ id: claimed.id, claimedBy: WORKER_ID });
    // An earlier process that had this one's pid (a container restarted).
    db()
      .update(mediaJobs)
      .set({ claimedBy: `${host}:${process.pid}:earlier` })
      .where(eq(mediaJobs.id, claimed.id))
      .run();
    expect(claimNextJob()).toMatchObject({ id: claimed.id, claimedBy: WORKER_ID });
    db().delete(mediaJobs).run();
  });
});

describe("the order list's 納品 with an attached video", () => {
  const form = async (file: string, name: string) => {
    const body = new FormData();
    body.append("intent", "deliver");
    body.append("file-41", new Blob([fs.readFileSync(file)]), name);
    return parseDeliveryForm(new Request("http://shop.test/admin/orders", { method: "POST", body }));
  };

  it("refuses the MP4 header followed by HTML, naming the file", async () => {
    expect(await form(await mp4HeaderThenHtml(), "kids.mp4")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringContaining("「kids.mp4」は再生できる動画ではありません") as string,
    });
  });

  it("keeps a real video's reading for its delivery file (deliverOrder queues its versions: download-versions.test.ts)", async () => {
    const parsed = await form(await smallVideo(), "12_縦.mp4");
    expect(parsed.ok && parsed.files.get(41)?.video).toMatchObject({ width: 640, height: 360 });
  });
});

describe("what a parent reads of a version", () => {
  it("durations as a player shows them", () => {
    expect(durationLabel(245_000)).toBe("4:05");
    expect(durationLabel(3_723_000)).toBe("1:02:03");
  });
});
