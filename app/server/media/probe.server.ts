import { execFile } from "node:child_process";
import type { VideoProbe } from "~/lib/rules/video-versions";

/**
 * A video read by ffprobe (Debian's ffmpeg): its container, codecs, duration, frame as shown,
 * bitrate and rotation. The shop's check that an upload is a video: the first bytes say only what
 * a file claims to be (an MP4 header followed by HTML passes them), ffprobe reads its streams.
 * Without ffprobe on the machine the shop does not start (startup.server.ts checks it).
 */

/** Longer than any honest file needs (ffprobe reads a header, at most the index at the end). */
const PROBE_TIMEOUT_MS = 60_000;

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
 * Null when ffprobe refuses the file; rejects when ffprobe itself is missing (not the file's fault).
 */
function runProbe(source: string): Promise<ProbeOutput | null> {
  return new Promise((resolve, reject) => {
    execFile(
      "ffprobe",
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", source],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
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

/** The reading of ffprobe's answer; null when it is not a video with a picture and a positive duration. */
export function videoOfProbe(output: ProbeOutput): VideoProbe | null {
  const streams = output.streams ?? [];
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
    durationMs: Math.round(durationSeconds * 1000),
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

/** The video at `source` (a path or URL), or null when it is not a playable video. */
export async function probeVideo(source: string): Promise<VideoProbe | null> {
  const output = await runProbe(source);
  return output ? videoOfProbe(output) : null;
}

/** Whether ffprobe and ffmpeg are on this machine (start-up says how to install them otherwise). */
export function ffmpegInstalled(): Promise<boolean> {
  const version = (command: string) =>
    new Promise<boolean>((resolve) =>
      execFile(command, ["-version"], { timeout: 10_000 }, (error) => resolve(!error)),
    );
  return Promise.all([version("ffprobe"), version("ffmpeg")]).then((found) => found.every(Boolean));
}
