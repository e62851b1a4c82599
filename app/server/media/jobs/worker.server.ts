import { env } from "../../core/env.server";
import { remember } from "../../core/remember.server";
import {
  claimNextJob,
  failJob,
  finishJob,
  releaseJob,
  reportJobProgress,
  type MediaJob,
} from "./queue.server";
import { FfmpegError } from "./ffmpeg.server";
import { JOB_TIME_LIMITS, type JobTimeLimits } from "./time-limits.server";
import { runMediaJob } from "./versions.server";

/**
 * The loop that runs media jobs: in the web server's process (MEDIA_WORKER=server, the default)
 * or in one of its own (`npm run worker`). It looks for due jobs every POLL_INTERVAL_MS and runs
 * up to MEDIA_JOBS at once; a shutdown stops ffmpeg and puts the job back for the next start. A
 * job past its time limit (time-limits.server.ts) is failed and the loop takes the next one.
 */

const POLL_INTERVAL_MS = 2_000;
/** Progress is written at most this often (each write renews the job's lease). */
const PROGRESS_EVERY_MS = 1_000;

type Running = { controller: AbortController; done: Promise<void> };
type WorkerState = {
  timer?: NodeJS.Timeout;
  concurrency: number;
  timeLimits: JobTimeLimits;
  running: Map<number, Running>;
  stopping: boolean;
};

// Remembered, so a dev-server reload reuses the loop instead of starting a second one.
function state(): WorkerState {
  return remember("mediaWorker", (): WorkerState => ({
    concurrency: 1,
    timeLimits: JOB_TIME_LIMITS,
    running: new Map(),
    stopping: false,
  }));
}

export type MediaWorkerOptions = {
  /** Jobs at once: MEDIA_JOBS. */
  concurrency?: number;
  intervalMs?: number;
  /** JOB_TIME_LIMITS; a test of the limit gives one of seconds. */
  timeLimits?: JobTimeLimits;
};

/** Starts the loop once per process. */
export function startMediaWorker({
  concurrency = env().MEDIA_JOBS,
  intervalMs = POLL_INTERVAL_MS,
  timeLimits = JOB_TIME_LIMITS,
}: MediaWorkerOptions = {}): void {
  const worker = state();
  if (worker.timer) return;
  worker.concurrency = concurrency;
  worker.timeLimits = timeLimits;
  worker.stopping = false;
  worker.timer = setInterval(fill, intervalMs);
  worker.timer.unref();
  fill();
}

/** Claims due jobs while a slot is free. */
function fill(): void {
  const worker = state();
  while (!worker.stopping && worker.running.size < worker.concurrency) {
    let job: MediaJob | undefined;
    try {
      job = claimNextJob();
    } catch (error) {
      console.error("[media-jobs] claiming a job failed", error);
      return;
    }
    if (!job) return;
    const controller = new AbortController();
    const claimed = job;
    worker.running.set(job.id, {
      controller,
      done: run(claimed, controller).finally(() => {
        worker.running.delete(claimed.id);
        fill();
      }),
    });
  }
}

async function run(job: MediaJob, controller: AbortController): Promise<void> {
  let reportedAt = 0;
  const onProgress = (percent: number) => {
    const at = performance.now();
    if (at - reportedAt < PROGRESS_EVERY_MS) return;
    reportedAt = at;
    // Taken by another worker (its lease ran out while this one was stalled): this one stops.
    if (!reportJobProgress(job.id, percent)) controller.abort();
  };
  const what = `${job.kind} of ${job.subject} ${job.subjectId} (job ${job.id}, try ${job.attempts})`;
  try {
    const detail = await runMediaJob(job, {
      signal: controller.signal,
      onProgress,
      timeLimits: state().timeLimits,
    });
    if (controller.signal.aborted) throw new Error("中断されました");
    finishJob(job.id, detail);
    console.log(`[media-jobs] ${what} done${detail ? `: ${detail}` : ""}`);
  } catch (error) {
    if (state().stopping) {
      releaseJob(job.id);
      console.log(`[media-jobs] ${what} stopped by the shutdown, waiting for the next start`);
      return;
    }
    if (controller.signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    const outcome = failJob(job, reason, error instanceof FfmpegError && error.final);
    console.error(
      `[media-jobs] ${what} failed${outcome === "failed" ? " for good" : ", will retry"}: ${reason}`,
    );
  }
}

/** Stops the loop: ffmpeg is stopped and its jobs wait for the next start (graceful shutdown). */
export async function stopMediaWorker(): Promise<void> {
  const worker = state();
  clearInterval(worker.timer);
  worker.timer = undefined;
  worker.stopping = true;
  const running = [...worker.running.values()];
  for (const job of running) job.controller.abort();
  await Promise.all(running.map((job) => job.done));
}

/** The number of jobs this process runs now (tests, the worker's log). */
export function runningJobCount(): number {
  return state().running.size;
}
