// The generated test videos are what their names say, as ffprobe reads them: the e2e and
// vitest tests of posters and phone versions rest on these (codec, size, rotation, audio or none).
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  MP4_HEADER_THEN_HTML_SIZE,
  VIDEO_BYTES_MIN,
  landscapeVideo,
  mp4HeaderThenHtml,
  portraitVideo,
  quickTimeVideo,
  rotatedIphoneVideo,
  sha256File,
  silentVideo,
  smallVideo,
  videoBytes,
} from "../helpers/test-videos";

const run = promisify(execFile);

interface Probed {
  streams: {
    codec_type: string;
    codec_name: string;
    codec_tag_string: string;
    width?: number;
    height?: number;
    side_data_list?: { rotation?: number }[];
  }[];
  format: { format_name: string; duration: string; bit_rate: string; tags?: { major_brand?: string } };
}

async function probe(file: string): Promise<Probed> {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_streams",
    "-show_format",
    "-of",
    "json",
    file,
  ]);
  return JSON.parse(stdout) as Probed;
}

function video(probed: Probed) {
  const streams = probed.streams.filter((stream) => stream.codec_type === "video");
  expect(streams).toHaveLength(1);
  return streams[0]!;
}

function audio(probed: Probed) {
  return probed.streams.filter((stream) => stream.codec_type === "audio");
}

function rotation(probed: Probed): number | undefined {
  return video(probed).side_data_list?.find((data) => data.rotation !== undefined)?.rotation;
}

/** The phone version's rate: an original above it by far leaves a lighter phone version. */
const PHONE_BITRATE = 2_500_000;

describe("generated test videos", () => {
  it("landscapeVideo: 1920×1080 H.264 with AAC, a few seconds, well above a phone version's rate", async () => {
    const probed = await probe(await landscapeVideo());
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 1920, height: 1080 });
    expect(audio(probed).map((stream) => stream.codec_name)).toEqual(["aac"]);
    expect(rotation(probed)).toBeUndefined();
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
    expect(Number(probed.format.bit_rate)).toBeGreaterThan(2 * PHONE_BITRATE);
  });

  it("portraitVideo: stored standing up (1080×1920), with no rotation to apply", async () => {
    const probed = await probe(await portraitVideo());
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 1080, height: 1920 });
    expect(audio(probed).map((stream) => stream.codec_name)).toEqual(["aac"]);
    expect(rotation(probed)).toBeUndefined();
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
    expect(Number(probed.format.bit_rate)).toBeGreaterThan(2 * PHONE_BITRATE);
  });

  it("rotatedIphoneVideo: HEVC in a QuickTime .mov, stored 1920×1080 and turned a quarter by its display matrix", async () => {
    const file = await rotatedIphoneVideo();
    expect(file).toMatch(/\.mov$/);
    const probed = await probe(file);
    expect(probed.format.tags?.major_brand).toBe("qt  ");
    expect(video(probed)).toMatchObject({
      codec_name: "hevc",
      codec_tag_string: "hvc1",
      width: 1920,
      height: 1080,
    });
    expect(rotation(probed)).toBe(-90);
    expect(audio(probed).map((stream) => stream.codec_name)).toEqual(["aac"]);
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
  });

  it("smallVideo: 640×360 H.264 with AAC, already below a phone version's rate", async () => {
    const probed = await probe(await smallVideo());
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
    expect(audio(probed).map((stream) => stream.codec_name)).toEqual(["aac"]);
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
    expect(Number(probed.format.bit_rate)).toBeLessThan(PHONE_BITRATE);
  });

  it("silentVideo: 1280×720 H.264 with no audio stream", async () => {
    const probed = await probe(await silentVideo());
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    expect(audio(probed)).toEqual([]);
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
  });

  it("mp4HeaderThenHtml: 95 bytes, an ftyp box then a script, with no stream ffprobe can find", async () => {
    const file = await mp4HeaderThenHtml();
    const bytes = fs.readFileSync(file);
    expect(bytes).toHaveLength(MP4_HEADER_THEN_HTML_SIZE);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(bytes.subarray(24).toString("latin1")).toContain("<script>alert(1)</script>");
    const found = await probe(file).then(
      (probed) => probed.streams.length,
      () => 0,
    );
    expect(found).toBe(0);
  });

  it("videoBytes: the sample padded by a free box to the size asked, the same for a seed and different across seeds, still a 3 s video", async () => {
    const size = VIDEO_BYTES_MIN + 100_000;
    const bytes = videoBytes(size, "a");
    expect(bytes).toHaveLength(size);
    expect(videoBytes(size, "a").equals(bytes)).toBe(true);
    expect(videoBytes(size, "b").equals(bytes)).toBe(false);
    expect(videoBytes(VIDEO_BYTES_MIN)).toHaveLength(VIDEO_BYTES_MIN);
    expect(() => videoBytes(VIDEO_BYTES_MIN - 1)).toThrow(RangeError);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "video-bytes-")), "padded.mp4");
    fs.writeFileSync(file, bytes);
    const probed = await probe(file);
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 480, height: 270 });
    expect(audio(probed).map((stream) => stream.codec_name)).toEqual(["aac"]);
    expect(Number(probed.format.duration)).toBeCloseTo(3, 1);
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it("quickTimeVideo: the sample in a QuickTime .mov (brand qt), not re-encoded", async () => {
    const file = await quickTimeVideo();
    expect(file).toMatch(/\.mov$/);
    expect(fs.readFileSync(file).subarray(4, 12).toString("latin1")).toBe("ftypqt  ");
    const probed = await probe(file);
    expect(probed.format.tags?.major_brand).toBe("qt  ");
    expect(video(probed)).toMatchObject({ codec_name: "h264", width: 480, height: 270 });
    expect(Number(probed.format.duration)).toBeCloseTo(3, 1);
  });

  it("each is made once: a second call returns the same file untouched", async () => {
    const file = await smallVideo();
    const before = fs.statSync(file).mtimeMs;
    expect(await smallVideo()).toBe(file);
    expect(fs.statSync(file).mtimeMs).toBe(before);
  });

  it("sha256File reads a file to the same hash as reading it whole", async () => {
    const file = await landscapeVideo();
    const whole = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    expect(await sha256File(file)).toBe(whole);
  });
});
