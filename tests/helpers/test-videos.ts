// Small videos made with the system's ffmpeg (test pattern and a tone), for vitest and for the
// Playwright specs alike (so nothing here imports vitest). Each is made once and kept in
// .tmp/test-videos/ (git-ignored) under a name holding a hash of how it is made, so changing a
// recipe makes a new file. A file is written under a name of its own and then renamed, so test
// workers running at once never read one half-written: the last rename wins, with the same bytes.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const CACHE = path.resolve(import.meta.dirname, "..", "..", ".tmp", "test-videos");

/** A few seconds: long enough for a poster frame and a phone version, short enough for npm test. */
const SECONDS = 3;

interface Recipe {
  /** ffmpeg's arguments between its options and the output (inputs, codecs, rates). */
  encode: string[];
  /** Arguments of a second ffmpeg run over the first one's output, without re-encoding. */
  remux?: string[];
  format: "mp4" | "mov";
}

const QUIET = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"];

function pattern(width: number, height: number): string[] {
  return ["-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=30:duration=${SECONDS}`];
}

const TONE = ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`];
const AAC = ["-c:a", "aac", "-b:a", "128k"];

/** H.264 as editors export it; ultrafast keeps making the file quick on a small machine. */
function h264(bitrate: string): string[] {
  return ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", bitrate];
}

const inFlight = new Map<string, Promise<string>>();

function made(name: string, recipe: Recipe): Promise<string> {
  const hash = crypto.createHash("sha256").update(JSON.stringify(recipe)).digest("hex").slice(0, 10);
  const file = path.join(CACHE, `${name}-${hash}.${recipe.format}`);
  let making = inFlight.get(file);
  if (!making) {
    making = make(file, recipe);
    inFlight.set(file, making);
    // A failed attempt is not kept, so a later call tries again.
    making.catch(() => inFlight.delete(file));
  }
  return making;
}

async function make(file: string, recipe: Recipe): Promise<string> {
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(CACHE, { recursive: true });
  const partial = `${file}.${process.pid}-${crypto.randomBytes(4).toString("hex")}.partial`;
  const encoded = recipe.remux ? `${partial}-encoded` : partial;
  try {
    await run("ffmpeg", [...QUIET, ...recipe.encode, "-f", recipe.format, encoded]);
    if (recipe.remux) {
      await run("ffmpeg", [...QUIET, "-i", encoded, ...recipe.remux, "-f", recipe.format, partial]);
    }
    fs.renameSync(partial, file);
    return file;
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(`${partial}-encoded`, { force: true });
  }
}

/**
 * 1920×1080 H.264 + AAC MP4, 3 s at about 8 Mb/s: an editor's 1080p export, clearly larger than
 * its 720p phone version at 2.5 Mb/s.
 */
export function landscapeVideo(): Promise<string> {
  return made("landscape-1080p", {
    encode: [...pattern(1920, 1080), ...TONE, ...h264("8M"), ...AAC, "-movflags", "+faststart"],
    format: "mp4",
  });
}

/** The same standing up (縦): 1080×1920 stored as such, no rotation. */
export function portraitVideo(): Promise<string> {
  return made("portrait-1080p", {
    encode: [...pattern(1080, 1920), ...TONE, ...h264("8M"), ...AAC, "-movflags", "+faststart"],
    format: "mp4",
  });
}

/**
 * As an iPhone records portrait: HEVC (hvc1) + AAC in a QuickTime `.mov` (brand `qt  `), stored
 * 1920×1080 with a display matrix turning it a quarter turn (ffprobe: rotation -90), so it plays
 * as 1080×1920. ffmpeg 5.1 has no -display_rotation and drops a `rotate` tag while encoding, but
 * writes the tag as a display matrix when copying streams: hence the second run.
 */
export function rotatedIphoneVideo(): Promise<string> {
  return made("iphone-portrait-hevc", {
    encode: [
      ...pattern(1920, 1080),
      ...TONE,
      ...["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"],
      ...["-pix_fmt", "yuv420p", "-b:v", "8M", "-tag:v", "hvc1"],
      ...AAC,
    ],
    // 270 is the tag's way of saying what an iPhone's matrix says: ffprobe reads both as -90.
    remux: ["-c", "copy", "-metadata:s:v:0", "rotate=270"],
    format: "mov",
  });
}

/** 640×360 H.264 + AAC MP4, 3 s at about 600 kb/s: already lighter than a phone version. */
export function smallVideo(): Promise<string> {
  return made("small-360p", {
    encode: [...pattern(640, 360), ...TONE, ...h264("600k"), ...AAC, "-movflags", "+faststart"],
    format: "mp4",
  });
}

/** 1280×720 H.264 MP4 with no audio stream at all. */
export function silentVideo(): Promise<string> {
  return made("silent-720p", {
    encode: [...pattern(1280, 720), ...h264("2M"), "-an", "-movflags", "+faststart"],
    format: "mp4",
  });
}

/**
 * The committed sample (e2e/fixtures): 480×270 H.264 + AAC MP4, 3 s, about 200 KB. A real video
 * read without running ffmpeg, for the many tests that need some video and not a particular one.
 */
export const SAMPLE_VIDEO = path.resolve(
  import.meta.dirname,
  "..",
  "..",
  "e2e",
  "fixtures",
  "sample-recital.mp4",
);

let sample: Buffer | undefined;

/** An ISO box's header: its size (32 bits, header included), then its type. */
const BOX_HEADER = 8;

/** The smallest file videoBytes makes: the sample and an empty `free` box. */
export const VIDEO_BYTES_MIN = fs.statSync(SAMPLE_VIDEO).size + BOX_HEADER;

/**
 * A real video of exactly `size` bytes, different for each `seed`: the sample, then a `free` box
 * (which players and ffprobe skip) of pseudo-random bytes drawn from the seed. What the tests'
 * fake videos gave (a given size, distinct SHA-256s, bytes no compression shrinks), in a file the
 * shop's ffprobe check takes. From VIDEO_BYTES_MIN up to about 4 GiB (a box's 32-bit size).
 */
export function videoBytes(size = VIDEO_BYTES_MIN + 4096, seed = "video"): Buffer {
  sample ??= fs.readFileSync(SAMPLE_VIDEO);
  const boxSize = size - sample.length;
  if (!Number.isInteger(size) || boxSize < BOX_HEADER || boxSize > 0xffff_ffff)
    throw new RangeError(
      `videoBytes: ${size} bytes is outside ${VIDEO_BYTES_MIN}…${sample.length + 0xffff_ffff}`,
    );
  const header = Buffer.alloc(BOX_HEADER);
  header.writeUInt32BE(boxSize, 0);
  header.write("free", 4, "latin1");
  // AES-CTR over zeros: a keystream fixed by the seed, fast enough for the 11 MB of the S3 tests.
  const key = crypto.createHash("sha256").update(seed).digest();
  const filler = crypto
    .createCipheriv("aes-256-ctr", key, Buffer.alloc(16))
    .update(Buffer.alloc(boxSize - BOX_HEADER));
  return Buffer.concat([sample, header, filler]);
}

/**
 * The sample remuxed (no re-encoding) into a QuickTime `.mov`: its `ftyp` brand is `qt  `, as an
 * iPhone's IMG_xxxx.MOV.
 */
export function quickTimeVideo(): Promise<string> {
  return made("sample-quicktime", { encode: ["-i", SAMPLE_VIDEO, "-c", "copy"], format: "mov" });
}

/** The crafted file: an MP4 `ftyp` box (24 bytes) followed by HTML, 95 bytes in all. */
export const MP4_HEADER_THEN_HTML_SIZE = 95;

/**
 * The 95-byte file that passed the old check of a video's first bytes: a valid-looking `ftyp`
 * box, then a page with a script. No stream in it for ffprobe to find.
 */
export function mp4HeaderThenHtml(): Promise<string> {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from("ftypmp42", "latin1"),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from("mp42isom", "latin1"),
  ]);
  const html = "<html><script>alert(1)</script></html>";
  const bytes = Buffer.concat([
    ftyp,
    Buffer.from(html.padEnd(MP4_HEADER_THEN_HTML_SIZE - ftyp.length - 1, " ") + "\n", "latin1"),
  ]);
  const file = path.join(CACHE, "mp4-header-then-html.mp4");
  if (!fs.existsSync(file) || !fs.readFileSync(file).equals(bytes)) {
    fs.mkdirSync(CACHE, { recursive: true });
    const partial = `${file}.${process.pid}-${crypto.randomBytes(4).toString("hex")}.partial`;
    fs.writeFileSync(partial, bytes);
    fs.renameSync(partial, file);
  }
  return Promise.resolve(file);
}

/** The SHA-256 of a file in hex, read as a stream so a large video never sits in memory. */
export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
