import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { env } from "../../core/env.server";
import { inputOptions, type VideoInput } from "../video-input.server";
import { TIME_LIMIT_MESSAGE } from "./time-limits.server";

/**
 * ffmpeg as the media jobs run it: at the lowest CPU priority and with a cap on its threads, so
 * that the pages a parent loads keep their speed while a video is transcoded beside them
 * (`npm run bench:transcode` measures it); its progress read from its own `-progress` output;
 * the input read as what it is and nothing it names; a time limit on each run.
 */

/** The lowest priority a process can have (nice 19): the web server's work always comes first. */
const LOWEST_PRIORITY = 19;

/** The thread cap: MEDIA_FFMPEG_THREADS, else half the machine's cores (1 of 2), leaving the rest to pages. */
export function ffmpegThreads(): number {
  return env().MEDIA_FFMPEG_THREADS ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
}

/** A try that failed; `final` when trying again cannot help. The message is for the admin, in Japanese. */
export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/**
 * ffmpeg killed with its parent: a worker killed with SIGKILL (the OOM killer, kill -9) cannot stop
 * it, and ffmpeg ignores SIGPIPE, so it would transcode on for minutes as an orphan while the
 * restarted worker transcodes the same video again. util-linux's setpriv (in every Debian, the
 * Docker image's too) sets Linux's parent-death signal and then becomes ffmpeg itself.
 */
const PARENT_DEATH_KILLS = ["setpriv", "--pdeathsig", "KILL", "--"];
const DIES_WITH_PARENT = process.platform === "linux" && fs.existsSync("/usr/bin/setpriv");

export type FfmpegRun = {
  /** The video read: with its kind's demuxer and its source's protocols only (video-input.server.ts). */
  input: VideoInput;
  /** Options of the input, given before it (a seek by the index: `-ss`). */
  inputArgs?: string[];
  /** ffmpeg's arguments after the input (filters, codecs, the output). */
  args: string[];
  /** The input's duration, to turn ffmpeg's position into a percentage. */
  durationMs: number;
  /** Past this ffmpeg is killed and the run fails for good with TIME_LIMIT_MESSAGE (time-limits.server.ts). */
  timeLimitMs: number;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/**
 * Runs ffmpeg to the end. Rejects with the last lines it wrote (why it failed, in its words) when
 * it exits non-zero, when `signal` aborts it (the job was stopped or lost its claim), or, final,
 * when it runs past its time limit (an input that never ends: it is killed, and the worker moves on).
 */
export function runFfmpeg({
  input,
  inputArgs = [],
  args,
  durationMs,
  timeLimitMs,
  onProgress,
  signal,
}: FfmpegRun): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new FfmpegError("中断されました"));
    // prettier-ignore
    const ffmpeg = [
      "ffmpeg", "-hide_banner", "-nostdin", "-y", "-v", "error", "-nostats", "-progress", "pipe:1",
      ...inputArgs, ...inputOptions(input), "-i", input.source,
    ];
    const [command, ...commandArgs] = [...(DIES_WITH_PARENT ? PARENT_DEATH_KILLS : []), ...ffmpeg, ...args];
    const child = spawn(command!, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, LOWEST_PRIORITY);
    } catch {
      // A system that refuses the change still transcodes, only at the normal priority.
    }
    let errors = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      errors = (errors + text).slice(-2000);
    });
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        // out_time_us is where the output has got to, in microseconds of the video.
        const position = /^out_time_us=(\d+)$/.exec(line.trim());
        if (position && durationMs > 0)
          onProgress?.(Math.min(99, Math.floor((Number(position[1]) / 1000 / durationMs) * 100)));
      }
    });
    // Nothing of a stopped or timed-out run is kept, so ffmpeg need not finish its output: SIGKILL.
    // setpriv has become ffmpeg (same pid), so it reaches ffmpeg itself.
    const abort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", abort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeLimitMs);
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    };
    child.once("error", (error) => {
      settle();
      reject(new FfmpegError(`ffmpeg を起動できませんでした: ${error.message}`));
    });
    child.once("close", (code) => {
      settle();
      if (signal?.aborted) return reject(new FfmpegError("中断されました"));
      if (timedOut) return reject(new FfmpegError(TIME_LIMIT_MESSAGE, true));
      if (code === 0) return resolve();
      const reason = errors.trim().split("\n").slice(-3).join(" / ").replaceAll(input.source, "元の動画");
      reject(new FfmpegError(`動画を変換できませんでした（ffmpeg: ${reason || `終了コード ${code}`}）`));
    });
  });
}
