import type { VideoKind } from "../core/sniff.server";

/**
 * What ffprobe and ffmpeg are given to read: the one video that was uploaded, and nothing it
 * names. Left to guess a file's format, they take some "videos" to be lists of other inputs (a
 * DASH manifest, an HLS playlist, an ffconcat file): a manifest beginning `<!--ftypjp2 -->`
 * passed the 16-byte sniffer as MP4, and ffprobe then fetched every URL it named and read other
 * local media files (*crafted manifest*; decision 0039). So each reads with the demuxer
 * of the kind the sniffer found, and through only the protocols reading the upload itself needs.
 */
export type VideoInput = {
  /** A path on this server, or the signed URL of a stored object. */
  source: string;
  /** What the upload's first bytes said it is (sniffVideo / sniffMedia), never its name alone. */
  kind: VideoKind;
};

/**
 * The demuxer for each kind, and the container ffprobe then reports (`format_name`). MP4 and
 * QuickTime are one demuxer in ffmpeg, WebM is Matroska's. Neither opens other files: the mov
 * demuxer follows a track's reference to another file only with `enable_drefs`, off by default
 * and kept off below.
 */
const DEMUXERS = {
  mp4: { demuxer: "mov", container: "mov,mp4,m4a,3gp,3g2,mj2" },
  mov: { demuxer: "mov", container: "mov,mp4,m4a,3gp,3g2,mj2" },
  webm: { demuxer: "matroska", container: "matroska,webm" },
} as const satisfies Record<VideoKind, { demuxer: string; container: string }>;

/** The containers the shop takes: what ffprobe reports when it reads with one of the demuxers above. */
export const VIDEO_CONTAINERS: readonly string[] = [
  ...new Set(Object.values(DEMUXERS).map((entry) => entry.container)),
];

/** The container ffprobe reports for a file read as `kind`. */
export function containerOf(kind: VideoKind): string {
  return DEMUXERS[kind].container;
}

/**
 * The protocols reading `source` needs: a path, the file itself (`file`); a signed object URL, its
 * own scheme and what carries it (`https,tls,tcp`; `http,tcp` for a bucket on plain http, as the
 * tests' local S3). Anything else a file might name (http from a local file, `data:`, `crypto:`,
 * `subfile:`, UDP) is refused by ffmpeg before it is opened.
 */
function protocolsFor(source: string): string {
  if (/^https:\/\//i.test(source)) return "https,tls,tcp";
  if (/^http:\/\//i.test(source)) return "http,tcp";
  return "file";
}

/**
 * The options that keep ffprobe and ffmpeg on `input` alone: given before the input (before `-i`
 * for ffmpeg), as they apply to the input that follows them.
 */
export function inputOptions(input: VideoInput): string[] {
  const { demuxer } = DEMUXERS[input.kind];
  // prettier-ignore
  return [
    "-f", demuxer,
    "-protocol_whitelist", protocolsFor(input.source),
    // Said rather than left to the default, so that no later ffmpeg opens what a track refers to.
    ...(demuxer === "mov" ? ["-enable_drefs", "0"] : []),
  ];
}
