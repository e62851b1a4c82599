import { formatBytes } from "./format";
import { durationLabel, resolutionLabel, type VideoProbe } from "./video-versions";

/**
 * What the back-office says of an uploaded video and of the work done on it in the background
 * (its poster and phone version, app/server/media/jobs/): 「1080p・4:05・横」 for the video, and
 * one state in words for its jobs together: 待機中, 処理中 37%・スマホ用動画の作成（2/2）, 完了
 * (with the phone version made, or why none was) or 失敗 with the reason. Pure, so the tabs, their
 * tests and the e2e read the same words.
 */

/** What the media jobs make of a video (the table media_jobs takes these from here). */
export const MEDIA_JOB_KINDS = ["poster", "phone"] as const;
export type JobKind = (typeof MEDIA_JOB_KINDS)[number];
export const MEDIA_JOB_STATUSES = ["waiting", "running", "done", "failed"] as const;
export type JobStatus = (typeof MEDIA_JOB_STATUSES)[number];

/** A job as the tabs need it (media_jobs' row without the worker's bookkeeping). */
export type JobView = {
  kind: JobKind;
  status: JobStatus;
  progress: number;
  attempts: number;
  detail: string | null;
};

export type VideoJobState = {
  status: JobStatus;
  /** The state in words: 待機中 / 処理中 37%・ポスター画像の作成（1/2） / 完了（…） / 失敗. */
  words: string;
  /** Why it failed (失敗), or why the last try failed while another waits. */
  reason: string | null;
  /** Whether a job is still waiting or running (beside a failed one, too): the state will change by itself. */
  unfinished: boolean;
};

const JOB_NAMES: Record<JobKind, string> = { poster: "ポスター画像", phone: "スマホ用" };

/** Each job as a step of 処理中: what is being made. */
const STEP_NAMES: Record<JobKind, string> = { poster: "ポスター画像の作成", phone: "スマホ用動画の作成" };

/**
 * How much of a video's processing each job is, for one percentage over its jobs: a poster is a
 * frame taken in about a second, a phone version a transcode of minutes. Equal shares would say
 * 50% when the poster is made and the long part has not begun.
 */
const STEP_WEIGHTS: Record<JobKind, number> = { poster: 1, phone: 9 };

/** 「1080p・4:05・横」: the resolution as people name it, the duration, and which way up it is shown. */
export function videoLabel(video: Pick<VideoProbe, "width" | "height" | "durationMs">): string {
  return `${resolutionLabel(video)}・${durationLabel(video.durationMs)}・${video.height > video.width ? "縦" : "横"}`;
}

/** The phone version as made, for 完了: its resolution and size. */
export type PhoneVersionView = { video: Pick<VideoProbe, "width" | "height">; size: number };

/**
 * One state for a video's jobs, which for the admin only moves forward (待機中 → 処理中 → 完了):
 * failed when any failed (the admin's 再実行 is needed); waiting while none has begun; done when
 * all are; else processing, from the first job's start until the last is done, with one
 * percentage over all the jobs and the step it is at. The worker makes every poster before any
 * phone version, so a file's phone version may wait after its poster is made: that is still
 * 処理中 (…の作成待ち), not 待機中 again. Null when the video has no jobs (uploaded before videos
 * were processed).
 */
export function videoJobState(jobs: JobView[], phone: PhoneVersionView | null): VideoJobState | null {
  if (jobs.length === 0) return null;
  const unfinished = jobs.some((job) => job.status === "waiting" || job.status === "running");
  const named = (job: JobView) => (jobs.length > 1 ? `${JOB_NAMES[job.kind]}: ${job.detail}` : job.detail);
  const failed = jobs.filter((job) => job.status === "failed");
  if (failed.length > 0)
    return { status: "failed", words: "失敗", reason: failed.map(named).join(" / "), unfinished };
  const running = jobs.find((job) => job.status === "running");
  // A job run again after a failed try keeps the try's reason until it succeeds.
  const retrying = jobs.find((job) => job.status !== "done" && job.attempts > 0 && job.detail);
  const retryReason = retrying ? `前回の失敗: ${named(retrying)}（自動で再試行します）` : null;
  // A job tried before (attempts) has begun, even when it waits for its next try.
  const begun = jobs.some((job) => job.status !== "waiting" || job.attempts > 0);
  if (!begun) return { status: "waiting", words: "待機中", reason: retryReason, unfinished };
  if (unfinished)
    return { status: "running", words: processingWords(jobs, running), reason: retryReason, unfinished };
  const phoneJob = jobs.find((job) => job.kind === "phone");
  const made =
    phone !== null
      ? `（スマホ用 ${resolutionLabel(phone.video)}・${formatBytes(phone.size)}）`
      : phoneJob?.detail
        ? `（${phoneJob.detail}）`
        : jobs.every((job) => job.kind === "poster")
          ? "（ポスター画像）"
          : "";
  return { status: "done", words: `完了${made}`, reason: null, unfinished: false };
}

/** 「処理中 43%・スマホ用動画の作成（2/2）」: the share of the work done and the step at hand. */
function processingWords(jobs: JobView[], running: JobView | undefined): string {
  const ordered = MEDIA_JOB_KINDS.flatMap((kind) => jobs.filter((job) => job.kind === kind));
  const weight = (job: JobView) => STEP_WEIGHTS[job.kind];
  const doneShare = (job: JobView) =>
    job.status === "done" ? 100 : job.status === "running" ? job.progress : 0;
  const percent = Math.floor(
    ordered.reduce((sum, job) => sum + weight(job) * doneShare(job), 0) /
      ordered.reduce((sum, job) => sum + weight(job), 0),
  );
  // The step running, else the next to run (it waits for the worker).
  const step = running ?? ordered.find((job) => job.status !== "done");
  if (!step) return `処理中 ${percent}%`;
  const name = `${STEP_NAMES[step.kind]}${step === running ? "" : "待ち"}`;
  const count = ordered.length > 1 ? `（${ordered.indexOf(step) + 1}/${ordered.length}）` : "";
  return `処理中 ${percent}%・${name}${count}`;
}

/** Whether any of these states is still to change by itself (the page refreshes while one is). */
export function anyUnfinished(states: (VideoJobState | null)[]): boolean {
  return states.some((state) => state?.unfinished === true);
}
