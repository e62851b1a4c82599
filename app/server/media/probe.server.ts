import { execFile } from "node:child_process";
import type { VideoProbe } from "~/lib/rules/video-versions";
import type { VideoKind } from "../core/sniff.server";
import { containerOf, inputOptions, VIDEO_CONTAINERS, type VideoInput } from "./video-input.server";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "~/lib/rules/tokyo-date";

/**
 * A video read by ffprobe (Debian's ffmpeg): its container, codecs, duration, frame as shown,
 * bitrate and rotation. The shop's check that an upload is a video: the first bytes say only what
 * a file claims to be (an MP4 header followed by HTML passes them), ffprobe reads its streams.
 * Without ffprobe on the machine the shop does not start (startup.server.ts checks it). It reads
 * with the demuxer of the kind the sniffer found, and nothing but the upload (video-input.server.ts).
 */

/**
 * Longer than any honest file needs (ffprobe reads a header, at most the index at the end). A
 * source that never answers is killed then (SIGTERM, which ffprobe obeys even mid-read).
 */
const PROBE_TIMEOUT_MS = MINUTE_MS;

/**
 * What the shop takes as a video, checked before any job is queued (and again before a job runs,
 * for a reading kept from before these limits). Above them a file is not a contest's video but a
 * way to keep ffmpeg busy for hours or to fill the disk with a phone version:
 * - a recital, a whole contest's stream included, lasts well under 6 hours (a lying header said
 *   100,000 hours: the job's time limit grows with the duration, so it must be bounded);
 * - 8K (7680×4320, either way up) is the largest frame a phone or a consumer camera records, far
 *   past what the shop makes of it (a 1280-pixel poster, a 720p phone version);
 * - a phone's recording has a video, an audio and a few metadata tracks; 16 leaves room for an
 *   editor's extra audio tracks, and keeps ffprobe's answer small.
 */
export const MAX_VIDEO_DURATION_MS = 6 * HOUR_MS;
export const MAX_FRAME_LONG_SIDE = 7680;
export const MAX_FRAME_SHORT_SIDE = 4320;
export const MAX_STREAMS = 16;

type ProbeStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: { rotate?: string };
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  disposition?: { attached_pic?: number };
};
type ProbeOutput = {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
};

/**
 * Runs ffprobe on a file path or a URL (a signed object URL: ffprobe reads only what it needs).
 * Null when ffprobe refuses the file or runs out of time; rejects when ffprobe itself is missing
 * (not the file's fault).
 */
function runProbe(input: VideoInput, timeoutMs: number): Promise<ProbeOutput | null> {
  return new Promise((resolve, reject) => {
    execFile(
      "ffprobe",
      // prettier-ignore
      [
        "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
        ...inputOptions(input), input.source,
      ],
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout) => {
        if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT")
          return reject(new Error("ffprobe が見つかりません（Debian の ffmpeg パッケージが必要です）"));
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout) as ProbeOutput);
        } catch {
          resolve(null);
        }
      },
    );
  });
}

/** ffmpeg 5 states rotation as a display matrix (counter-clockwise degrees), older files as a `rotate` tag. */
function rotationOf(stream: ProbeStream): number {
  const matrix = stream.side_data_list?.find((data) => data.side_data_type === "Display Matrix");
  const degrees = matrix?.rotation !== undefined ? -matrix.rotation : Number(stream.tags?.rotate ?? 0);
  return (((Math.round(degrees) % 360) + 360) % 360) as number;
}

/**
 * The reading of ffprobe's answer for a file read as `kind`; null when it is not a video of that
 * container with a picture, a positive duration and at most MAX_STREAMS streams.
 */
export function videoOfProbe(output: ProbeOutput, kind: VideoKind): VideoProbe | null {
  // ffprobe was told the demuxer: any other answer is not the file the sniffer read.
  if (output.format?.format_name !== containerOf(kind)) return null;
  const streams = output.streams ?? [];
  if (streams.length > MAX_STREAMS) return null;
  // A cover picture attached to an audio file is a "video" stream of one frame: not a video.
  const video = streams.find((stream) => stream.codec_type === "video" && !stream.disposition?.attached_pic);
  const audio = streams.find((stream) => stream.codec_type === "audio");
  if (!video?.codec_name || !video.width || !video.height) return null;
  const durationSeconds = Number(output.format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return null;
  const rotation = rotationOf(video);
  const turned = rotation === 90 || rotation === 270;
  const bitrate = Number(output.format?.bit_rate ?? NaN);
  return {
    container: output.format?.format_name ?? "",
    videoCodec: video.codec_name,
    audioCodec: audio?.codec_name ?? null,
    durationMs: Math.round(durationSeconds * SECOND_MS),
    width: turned ? video.height : video.width,
    height: turned ? video.width : video.height,
    bitrate: Number.isFinite(bitrate) && bitrate > 0 ? Math.round(bitrate) : null,
    rotation,
  };
}

/** The refusal of a file that is not a playable video, naming it (one of a batch is told apart). */
export function notPlayableMessage(fileName: string): string {
  return `「${fileName}」は再生できる動画ではありません（映像と長さを読み取れませんでした）。動画を書き出し直して選択してください`;
}

/** Whether a reading is of a container the shop takes, within the duration and frame limits above. */
export function withinVideoLimits(video: VideoProbe): boolean {
  return (
    VIDEO_CONTAINERS.includes(video.container) &&
    video.durationMs <= MAX_VIDEO_DURATION_MS &&
    Math.max(video.width, video.height) <= MAX_FRAME_LONG_SIDE &&
    Math.min(video.width, video.height) <= MAX_FRAME_SHORT_SIDE
  );
}

/** The refusal of a video past the limits, naming it and saying the limits. */
export function overLimitsMessage(fileName: string): string {
  return `「${fileName}」は長さか大きさが上限を超えています（${MAX_VIDEO_DURATION_MS / HOUR_MS}時間・${MAX_FRAME_LONG_SIDE}×${MAX_FRAME_SHORT_SIDE}まで）。短く・小さく書き出し直して選択してください`;
}

/**
 * The video `input` (a path or URL, read as the kind its first bytes said), or null when it is
 * not a playable video of that kind. `timeoutMs` is PROBE_TIMEOUT_MS but for tests of a source
 * that never answers.
 */
export async function probeVideo(
  input: VideoInput,
  { timeoutMs = PROBE_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<VideoProbe | null> {
  const output = await runProbe(input, timeoutMs);
  return output ? videoOfProbe(output, input.kind) : null;
}

/**
 * An uploaded video as the shop takes it (samples, 納品ファイル, the order list's 納品), or the
 * refusal that names the file: not playable (a manifest, a playlist, HTML behind an MP4 header),
 * or past the limits.
 */
export async function checkUploadedVideo(
  input: VideoInput,
  fileName: string,
): Promise<{ ok: true; video: VideoProbe } | { ok: false; message: string }> {
  const video = await probeVideo(input);
  if (!video) return { ok: false, message: notPlayableMessage(fileName) };
  if (!withinVideoLimits(video)) return { ok: false, message: overLimitsMessage(fileName) };
  return { ok: true, video };
}

/** Whether ffprobe and ffmpeg are on this machine (start-up says how to install them otherwise). */
export function ffmpegInstalled(): Promise<boolean> {
  const version = (command: string) =>
    new Promise<boolean>((resolve) =>
      execFile(command, ["-version"], { timeout: 10_000 }, (error) => resolve(!error)),
    );
  return Promise.all([version("ffprobe"), version("ffmpeg")]).then((found) => found.every(Boolean));
}
