import fs from "node:fs";

/**
 * What a file is, by its first bytes: the shop's one reading of magic bytes. A file's name
 * and the browser's content type are never trusted; 16 bytes of its head are enough here.
 */

export type VideoKind = "mp4" | "mov" | "webm";
export type ImageKind = "jpg" | "png" | "webp";
/** A video's kind goes on to ffprobe and ffmpeg (they read it with that kind's demuxer only). */
export type SniffedMedia =
  | { mediaType: "video"; extension: VideoKind; contentType: string }
  | { mediaType: "image"; extension: ImageKind | "gif"; contentType: string };

/**
 * The content type of each kind the shop stores, by the extension it stores it under: the
 * one table that both names an upload (sniffMedia) and serves it back (contentTypeOfStored),
 * so a kind accepted at upload cannot be left without a type when served.
 */
export const CONTENT_TYPES = {
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
} as const satisfies Record<VideoKind | ImageKind | "gif", string>;

/** The content type a stored file is served with, from its stored name's extension; null for any other name. */
export function contentTypeOfStored(storedName: string): string | null {
  const extension = /\.([a-z0-9]+)$/.exec(storedName)?.[1] ?? "";
  return Object.hasOwn(CONTENT_TYPES, extension)
    ? CONTENT_TYPES[extension as keyof typeof CONTENT_TYPES]
    : null;
}

/** How many leading bytes the sniffers need at most. */
export const SNIFF_BYTES = 16;

/** MP4 and MOV (an ISO `ftyp` box; brand `qt` is QuickTime) or WebM (an EBML header). */
export function sniffVideo(head: Uint8Array): VideoKind | null {
  if (head.length >= 12 && String.fromCharCode(...head.subarray(4, 8)) === "ftyp") {
    return String.fromCharCode(...head.subarray(8, 10)) === "qt" ? "mov" : "mp4";
  }
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return "webm";
  return null;
}

/** A video (MP4, MOV, WebM) or an image (JPEG, PNG, GIF, WebP), with the extension and content type the shop stores it under. */
export function sniffMedia(head: Uint8Array): SniffedMedia | null {
  const video = sniffVideo(head);
  if (video) return { mediaType: "video", extension: video, contentType: CONTENT_TYPES[video] };
  const image = (extension: ImageKind | "gif"): SniffedMedia => ({
    mediaType: "image",
    extension,
    contentType: CONTENT_TYPES[extension],
  });
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return image("jpg");
  if (head.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return image("png");
  if (head.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return image("gif");
  if (head.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return image("webp");
  return null;
}

/** A photo for a cover: JPEG, PNG or WebP, so not a GIF. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  const kind = sniffMedia(head);
  return kind?.mediaType === "image" && kind.extension !== "gif" ? kind.extension : null;
}

/** The first bytes of a file on disk, zero-filled when the file is shorter. */
export function readHead(file: string, length = SNIFF_BYTES): Buffer {
  const head = Buffer.alloc(length);
  const handle = fs.openSync(file, "r");
  try {
    fs.readSync(handle, head, 0, length, 0);
    return head;
  } finally {
    fs.closeSync(handle);
  }
}
