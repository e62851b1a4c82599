import { approximateSize, durationLabel, resolutionLabel, type VideoProbe } from "./video-versions";

/**
 * What the back-office says of an uploaded video and of the work done on it in the background
 * (its poster and phone version, app/server/media/jobs/): 「1080p・4:05・横」 for the video, and
 * one state in words for its jobs together: 待機中, 処理中 37%, 完了 (with the phone version made,
 * or why none was) or 失敗 with the reason. Pure, so the tabs, their tests and the e2e read the
 * same words.
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
  /** The state in words: 待機中 / 処理中 37% / 完了（…） / 失敗. */
  words: string;
  /** Why it failed (失敗), or why the last try failed while another waits. */
  reason: string | null;
  /** Whether a job is still waiting or running (beside a failed one, too): the state will change by itself. */
  unfinished: boolean;
};

const JOB_NAMES: Record<JobKind, string> = { poster: "ポスター画像", phone: "スマホ用" };

/** 「1080p・4:05・横」: the resolution as people name it, the duration, and which way up it is shown. */
export function videoLabel(video: Pick<VideoProbe, "width" | "height" | "durationMs">): string {
  return `${resolutionLabel(video)}・${durationLabel(video.durationMs)}・${video.height > video.width ? "縦" : "横"}`;
}

/** The phone version as made, for 完了: its resolution and size. */
export type PhoneVersionView = { video: Pick<VideoProbe, "width" | "height">; size: number };

/**
 * One state for a video's jobs: failed when any failed (the admin's 再実行 is needed), else
 * processing while one runs, waiting while one waits, done when all are. Null when the video has
 * no jobs (uploaded before videos were processed).
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
  if (running)
    return { status: "running", words: `処理中 ${running.progress}%`, reason: retryReason, unfinished };
  if (jobs.some((job) => job.status === "waiting"))
    return { status: "waiting", words: "待機中", reason: retryReason, unfinished };
  const phoneJob = jobs.find((job) => job.kind === "phone");
  const made =
    phone !== null
      ? `（スマホ用 ${resolutionLabel(phone.video)}・${approximateSize(phone.size)}）`
      : phoneJob?.detail
        ? `（${phoneJob.detail}）`
        : jobs.every((job) => job.kind === "poster")
          ? "（ポスター画像）"
          : "";
  return { status: "done", words: `完了${made}`, reason: null, unfinished: false };
}

/** Whether any of these states is still to change by itself (the page refreshes while one is). */
export function anyUnfinished(states: (VideoJobState | null)[]): boolean {
  return states.some((state) => state?.unfinished === true);
}
