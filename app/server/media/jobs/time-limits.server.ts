import type { MediaJobKind } from "../../db/schema";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * How long a media job's ffmpeg may run before it is killed and the job failed for good
 * (*stalled job*: an input whose fetch never answered kept the only worker busy, and the next
 * upload's poster stayed 待機中). A limit that grows with the video, so an honest long video is
 * never cut off, and a floor, so a short one is not either on a busy machine.
 *
 * The figures: `npm run bench:transcode` makes a 60 s 1080p export's phone version in 30.8 s on
 * this 2-core machine, quiet (0.51 of the video's duration). An iPhone's 4K HEVC original is likely
 * several times slower to decode than that 1080p H.264 (not measured), and ffmpeg runs at nice 19,
 * so the pages take the CPU first; 6× the duration is about 12 times the measured pace. A poster is a seek and one frame
 * (under a second measured); two minutes allow a slow bucket, and a file without an index that is
 * decoded from the start up to the poster's time (at most 5 s in).
 */
export type JobTimeLimits = {
  /** A poster, whatever the video's length. */
  posterMs: number;
  /** A phone version: this much at least (start-up, an index read at the end through the bucket)… */
  phoneFloorMs: number;
  /** …plus this many times the video's own duration. */
  phonePerVideoDuration: number;
};

export const JOB_TIME_LIMITS: JobTimeLimits = {
  posterMs: 2 * MINUTE_MS,
  phoneFloorMs: 5 * MINUTE_MS,
  phonePerVideoDuration: 6,
};

/** A job's time limit for a video of `durationMs`. */
export function jobTimeLimitMs(
  kind: MediaJobKind,
  durationMs: number,
  limits: JobTimeLimits = JOB_TIME_LIMITS,
): number {
  if (kind === "poster") return limits.posterMs;
  return limits.phoneFloorMs + Math.round(limits.phonePerVideoDuration * durationMs);
}

/**
 * The reason a job killed at its limit is failed with, for the admin. Final: the same input on the
 * same machine would take as long again; the admin can run it again (再実行) once the cause is known.
 */
export const TIME_LIMIT_MESSAGE = "時間内に処理できませんでした";
