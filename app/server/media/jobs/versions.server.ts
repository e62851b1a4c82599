import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import {
  PHONE_AUDIO_BITRATE,
  phoneVersionPlan,
  posterFrame,
  posterTimeMs,
  type VideoProbe,
} from "~/lib/rules/video-versions";
import { db } from "../../db/client.server";
import { deliveryFiles, mediaItems } from "../../db/schema";
import { newStoredName, removeStoredFiles } from "../../files/storage.server";
import { fileStore, type Audience } from "../../files/store.server";
import type { VideoKind } from "../../core/sniff.server";
import { probeVideo, withinVideoLimits } from "../probe.server";
import { storedVideoKind, withVideoSource } from "../video-source.server";
import { ffmpegThreads, FfmpegError, runFfmpeg } from "./ffmpeg.server";
import type { MediaJob } from "./queue.server";
import { JOB_TIME_LIMITS, jobTimeLimitMs, type JobTimeLimits } from "./time-limits.server";

/**
 * What the media jobs make of an uploaded video: a poster frame (every sample and delivered
 * video) and a phone version (delivered videos): H.264 + AAC in MP4 at 720p, orientation kept,
 * about 2.5 Mb/s, its index at the front (`faststart`) so a phone plays it while it arrives.
 * Each is stored beside the original in the same store and written on the video's row.
 */

export type JobRun = {
  signal: AbortSignal;
  onProgress: (percent: number) => void;
  /** JOB_TIME_LIMITS unless the worker was started with others (a test's, of a few seconds). */
  timeLimits?: JobTimeLimits;
};

/** The video a job works on, as its row holds it; null when it is gone (deleted, its bytes removed). */
type Subject = {
  storedName: string;
  size: number;
  video: VideoProbe | null;
  posterStoredName: string | null;
  phoneStoredName: string | null;
  /** Delivered videos and what is made of them are private; a contest's samples are shown to everyone. */
  audience: Audience;
};

function subjectOf(job: MediaJob): Subject | null {
  if (job.subject === "sample") {
    const row = db().select().from(mediaItems).where(eq(mediaItems.id, job.subjectId)).get();
    return row && row.mediaType === "video" ? { ...row, phoneStoredName: null, audience: "public" } : null;
  }
  const row = db().select().from(deliveryFiles).where(eq(deliveryFiles.id, job.subjectId)).get();
  return row && !row.deletedAt ? { ...row, audience: "private" } : null;
}

/** Why a stored file is not worked on. */
const NOT_A_VIDEO = "動画として読み取れませんでした";

/** The video's reading, taken now for a file uploaded before videos were probed. */
async function videoOf(job: MediaJob, subject: Subject, kind: VideoKind): Promise<VideoProbe> {
  if (subject.video) return subject.video;
  const video = await withVideoSource(subject.storedName, kind, probeVideo);
  if (!video) throw new FfmpegError(NOT_A_VIDEO);
  const table = job.subject === "sample" ? mediaItems : deliveryFiles;
  db().update(table).set({ video }).where(eq(table.id, job.subjectId)).run();
  return video;
}

/** A file in the store's scratch folder for ffmpeg's output, removed however the job ends. */
async function withScratchOutput<T>(extension: string, work: (file: string) => Promise<T>): Promise<T> {
  const store = await fileStore();
  await fsp.mkdir(store.scratchDir(), { recursive: true });
  const file = path.join(store.scratchDir(), `job-${crypto.randomBytes(12).toString("hex")}.${extension}`);
  try {
    return await work(file);
  } finally {
    await fsp.rm(file, { force: true });
  }
}

/** Does the job; resolves with why nothing was made (or null), rejects when a try failed. */
export async function runMediaJob(job: MediaJob, run: JobRun): Promise<string | null> {
  const subject = subjectOf(job);
  if (!subject) return "元の動画が削除されたため作成しません";
  if (!(await (await fileStore()).stat(subject.storedName)))
    throw new FfmpegError("元の動画が保存先に見つかりません。ファイルを差し替えてください", true);
  // The kind is read again from the stored bytes, as the upload's sniffer read it: ffmpeg reads
  // the file with that kind's demuxer only.
  const kind = await storedVideoKind(subject.storedName);
  if (!kind) throw new FfmpegError(NOT_A_VIDEO, true);
  const video = await videoOf(job, subject, kind);
  // A reading kept from before the limits (a manifest's 100,000 hours) never starts a job.
  if (!withinVideoLimits(video))
    throw new FfmpegError(`${NOT_A_VIDEO}（形式・長さ・大きさが対象外です）`, true);
  const timeLimitMs = jobTimeLimitMs(job.kind, video.durationMs, run.timeLimits ?? JOB_TIME_LIMITS);
  const work = { job, subject, kind, video, run, timeLimitMs };
  return job.kind === "poster" ? makePoster(work) : makePhoneVersion(work);
}

/** What a job works on and within. */
type JobWork = {
  job: MediaJob;
  subject: Subject;
  kind: VideoKind;
  video: VideoProbe;
  run: JobRun;
  timeLimitMs: number;
};

async function makePoster({ job, subject, kind, video, run, timeLimitMs }: JobWork): Promise<null> {
  const frame = posterFrame(video);
  const threads = String(ffmpegThreads());
  await withScratchOutput("jpg", async (output) => {
    await withVideoSource(subject.storedName, kind, (input) =>
      runFfmpeg({
        input,
        // -ss before -i seeks by the index, so only the frames near the poster's time are decoded.
        inputArgs: ["-threads", threads, "-ss", (posterTimeMs(video.durationMs) / 1000).toFixed(3)],
        // prettier-ignore
        args: [
          "-frames:v", "1",
          "-vf", `scale=${frame.width}:${frame.height}`,
          "-q:v", "3",
          "-map_metadata", "-1",
          output,
        ],
        durationMs: 0,
        timeLimitMs,
        signal: run.signal,
      }),
    );
    if (!fs.existsSync(output) || fs.statSync(output).size === 0)
      throw new FfmpegError("動画から画像を取り出せませんでした");
    const storedName = newStoredName("poster", "jpg");
    await (await fileStore()).putFile(storedName, output, "image/jpeg", subject.audience);
    await record(job, { posterStoredName: storedName });
  });
  return null;
}

/**
 * ffmpeg's options for a phone version (also what `npm run bench:transcode` times): those of the
 * input (before it) and the rest (after it).
 */
export function phoneVersionArgs(
  output: string,
  plan: { width: number; height: number; videoBitrate: number },
): { inputArgs: string[]; args: string[] } {
  const threads = String(ffmpegThreads());
  // ffmpeg turns a rotated video upright itself (its display matrix), so the frame is as shown.
  // -map_metadata -1: a phone's recording carries where it was made; the copy sent out does not.
  // prettier-ignore
  const args = [
    "-map", "0:v:0", "-map", "0:a:0?",
    "-vf", `scale=${plan.width}:${plan.height}:flags=bicubic,format=yuv420p`,
    "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high",
    "-b:v", String(plan.videoBitrate),
    "-maxrate", String(Math.round(plan.videoBitrate * 1.25)),
    "-bufsize", String(plan.videoBitrate * 2),
    "-c:a", "aac", "-b:a", String(PHONE_AUDIO_BITRATE), "-ac", "2",
    // Before -i the cap is the decoder's; here it is the encoder's and the filters' (x264 alone
    // would otherwise take 1.5 threads per core).
    "-threads", threads, "-filter_threads", threads,
    "-map_metadata", "-1",
    "-movflags", "+faststart",
    output,
  ];
  return { inputArgs: ["-threads", threads], args };
}

async function makePhoneVersion({
  job,
  subject,
  kind,
  video,
  run,
  timeLimitMs,
}: JobWork): Promise<string | null> {
  const plan = phoneVersionPlan(video);
  if (!plan.make) return plan.reason;
  return withScratchOutput("mp4", async (output) => {
    await withVideoSource(subject.storedName, kind, (input) =>
      runFfmpeg({
        input,
        ...phoneVersionArgs(output, plan),
        durationMs: video.durationMs,
        timeLimitMs,
        onProgress: run.onProgress,
        signal: run.signal,
      }),
    );
    // What was made is read as what it was made to be (an MP4), like any upload.
    const made = await probeVideo({ source: output, kind: "mp4" });
    if (!made) throw new FfmpegError("作成したスマホ用の動画を読み取れませんでした");
    const size = (await fsp.stat(output)).size;
    if (size >= subject.size) return "元の動画より小さくならないためスマホ用は作りません";
    const storedName = newStoredName("phone", "mp4");
    await (await fileStore()).putFile(storedName, output, "video/mp4", subject.audience);
    await record(job, { phoneStoredName: storedName, phoneSize: size, phoneVideo: made });
    return null;
  });
}

/**
 * Writes what was made on the video's row and removes what it replaces (a job run again); when
 * the video went meanwhile (deleted, its bytes removed), what was made is removed instead. (A
 * video deleted between this read and the update leaves a version behind: the hourly clean-up
 * removes the versions of deleted files, file-cleanup.server.ts.)
 */
async function record(
  job: MediaJob,
  made: { posterStoredName: string } | { phoneStoredName: string; phoneSize: number; phoneVideo: VideoProbe },
): Promise<void> {
  const poster = "posterStoredName" in made;
  const madeName = poster ? made.posterStoredName : made.phoneStoredName;
  const before = subjectOf(job);
  if (!before) return removeStoredFiles(madeName);
  // A sample has a poster only (it is played from the contest's page as uploaded).
  if (job.subject === "sample") {
    if (poster) db().update(mediaItems).set(made).where(eq(mediaItems.id, job.subjectId)).run();
  } else db().update(deliveryFiles).set(made).where(eq(deliveryFiles.id, job.subjectId)).run();
  await removeStoredFiles(poster ? before.posterStoredName : before.phoneStoredName);
}
