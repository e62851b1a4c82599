/**
 * What the shop knows of a video (ffprobe's reading, app/server/media/probe.server.ts) and the
 * rules of the versions it makes of one: the poster frame and the phone version. Pure, so the
 * back-office, the download page and the jobs read the same labels and the same decisions.
 */

/** A video as ffprobe read it. Width and height are as shown (rotation applied): a 縦 video is taller than wide. */
export type VideoProbe = {
  /** ffprobe's format name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  container: string;
  videoCodec: string;
  /** Null for a video without sound. */
  audioCodec: string | null;
  durationMs: number;
  width: number;
  height: number;
  /** Bits per second of the whole file; null when the container does not say. */
  bitrate: number | null;
  /** Degrees the player turns the stored frames (an iPhone's portrait video is stored landscape, turned 90). */
  rotation: number;
};

/** The phone version's frame: 720 lines on the short side (720p), the orientation of the original. */
export const PHONE_SHORT_SIDE = 720;
/** Video bits per second of the phone version; with 128 kb/s of AAC about 2.5 Mb/s in all. */
export const PHONE_VIDEO_BITRATE = 2_350_000;
export const PHONE_AUDIO_BITRATE = 128_000;
/** An original at most this rate, H.264 in MP4 and no taller than 720p, is already a phone version. */
const ALREADY_LIGHT_BITRATE = 2_800_000;
/** The poster frame's long side. */
export const POSTER_LONG_SIDE = 1280;

export type PhoneVersionPlan =
  { make: true; width: number; height: number; videoBitrate: number } | { make: false; reason: string };

/** An even number of pixels (H.264 in 4:2:0 needs both sides even), at least 2. */
function even(pixels: number): number {
  return Math.max(2, Math.round(pixels / 2) * 2);
}

/** The frame of `probe` scaled so its short side is `shortSide`, orientation kept. */
export function scaledFrame(probe: Pick<VideoProbe, "width" | "height">, shortSide: number) {
  const portrait = probe.height > probe.width;
  const short = Math.min(probe.width, probe.height);
  const long = Math.max(probe.width, probe.height);
  const scaledShort = even(Math.min(shortSide, short));
  const scaledLong = even((long * scaledShort) / short);
  return portrait ? { width: scaledShort, height: scaledLong } : { width: scaledLong, height: scaledShort };
}

/**
 * Whether a delivered video gets a phone version, and its frame and rate: never larger or sharper
 * than the original (its short side and bitrate are upper bounds), and none when the original is
 * already H.264 in MP4 at 720p or less and about the phone version's rate.
 */
export function phoneVersionPlan(probe: VideoProbe): PhoneVersionPlan {
  const short = Math.min(probe.width, probe.height);
  const playsEverywhere =
    probe.videoCodec === "h264" &&
    probe.container.includes("mp4") &&
    (probe.audioCodec === null || probe.audioCodec === "aac");
  if (short <= PHONE_SHORT_SIDE && playsEverywhere && (probe.bitrate ?? 0) <= ALREADY_LIGHT_BITRATE)
    return { make: false, reason: "元の動画が軽いためスマホ用は作りません" };
  const frame = scaledFrame(probe, PHONE_SHORT_SIDE);
  const videoBitrate =
    probe.bitrate === null
      ? PHONE_VIDEO_BITRATE
      : Math.max(200_000, Math.min(PHONE_VIDEO_BITRATE, probe.bitrate - PHONE_AUDIO_BITRATE));
  return { make: true, ...frame, videoBitrate };
}

/** The poster frame's size: the video's own, or smaller with its long side POSTER_LONG_SIDE. */
export function posterFrame(probe: Pick<VideoProbe, "width" | "height">) {
  const long = Math.max(probe.width, probe.height);
  if (long <= POSTER_LONG_SIDE) return { width: even(probe.width), height: even(probe.height) };
  const scale = POSTER_LONG_SIDE / long;
  return { width: even(probe.width * scale), height: even(probe.height * scale) };
}

/** Where in the video the poster is taken: a tenth in (past a fade-in), at most 5 s, never past the end. */
export function posterTimeMs(durationMs: number): number {
  return Math.max(0, Math.min(durationMs / 10, 5_000, durationMs - 100));
}

/** 「1080p」「720p」: the short side, as people name a video's resolution. */
export function resolutionLabel(video: Pick<VideoProbe, "width" | "height">): string {
  return `${Math.min(video.width, video.height)}p`;
}

/** 「4:05」「1:02:03」: a duration as a player shows it. */
export function durationLabel(durationMs: number): string {
  const total = Math.max(0, Math.round(durationMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}
