import fsp from "node:fs/promises";
import { and, eq, max, ne } from "drizzle-orm";
import type { CONTENT_CATEGORIES } from "~/lib/schemas/media-schemas";
import { now } from "../core/clock.server";
import { loadSharp } from "../core/lazy-modules.server";
import { db } from "../db/client.server";
import { mediaItems } from "../db/schema";
import { newStoredName } from "../files/storage.server";
import { readHead, sniffMedia, type SniffedMedia } from "../core/sniff.server";
import { fileStore } from "../files/store.server";
import type { VideoProbe } from "~/lib/rules/video-versions";
import { queueMediaJobs } from "./jobs/queue.server";
import { checkUploadedVideo } from "./probe.server";
import { uploadFailure, type UploadFailure } from "./upload-rows.server";

/** A contest's media item as stored: a video or image of its コンテンツ tab. */
export type StoredMedia = typeof mediaItems.$inferSelect;

/** What the upload said about the file: its name, what it should be, and which list it joins. */
export type MediaMeta = {
  originalName: string;
  expectedType: "video" | "image" | null;
  category: (typeof CONTENT_CATEGORIES)[number];
};

/** Each refusal names the file: of a batch, the admin must know which one was not taken. */
export const NEW_MEDIA_ERRORS = {
  notMedia: (fileName: string) =>
    `「${fileName}」は対応していないファイル形式です。動画（MP4・MOV・WebM）か画像（JPEG・PNG・WebP・GIF）を選択してください`,
  notExpected: (fileName: string, expected: "video" | "image") =>
    `「${fileName}」の中身が${expected === "video" ? "動画" : "画像"}ではありません`,
  unreadableImage: (fileName: string) =>
    `「${fileName}」を画像として読み取れませんでした。別の画像を選択してください`,
} as const;

/** The category a content upload names; anything else is a sample, as the form's default. */
export const contentCategoryOf = (category: string | null): MediaMeta["category"] =>
  category === "others" ? "others" : "sample";

/** What a file's first bytes say it is, checked against what the upload said it would be. */
export function checkMedia(
  head: Buffer,
  { originalName, expectedType }: Pick<MediaMeta, "originalName" | "expectedType">,
): SniffedMedia | UploadFailure {
  const kind = sniffMedia(head);
  if (!kind) return uploadFailure(415, NEW_MEDIA_ERRORS.notMedia(originalName));
  if (expectedType && kind.mediaType !== expectedType)
    return uploadFailure(415, NEW_MEDIA_ERRORS.notExpected(originalName, expectedType));
  return kind;
}

/** An image's size, read by decoding it; null when it has no picture behind its magic bytes. */
export async function imageSize(
  file: string,
): Promise<{ width: number | null; height: number | null } | null> {
  const sharp = await loadSharp();
  try {
    const metadata = await sharp(file).metadata();
    return { width: metadata.width ?? null, height: metadata.height ?? null };
  } catch {
    return null;
  }
}

/**
 * What an upload to the contest's content is, read from the file itself: an image's size (sharp),
 * a video's streams and duration (ffprobe, as the kind its first bytes said), or the refusal that
 * names the file. `source` is a path on this server or a URL ffprobe can read.
 */
export async function readMedia(
  kind: SniffedMedia,
  source: string,
  originalName: string,
): Promise<{ width: number | null; height: number | null; video: VideoProbe | null } | UploadFailure> {
  if (kind.mediaType === "image") {
    const size = await imageSize(source);
    return size
      ? { ...size, video: null }
      : uploadFailure(415, NEW_MEDIA_ERRORS.unreadableImage(originalName));
  }
  const checked = await checkUploadedVideo({ source, kind: kind.extension }, originalName);
  if (!checked.ok) return uploadFailure(415, checked.message);
  const { video } = checked;
  return { width: video.width, height: video.height, video };
}

/** Appends a stored file to the contest's content, after the last item; a video's poster is queued with it. */
export function insertMediaItem(
  contestId: number,
  stored: {
    storedName: string;
    kind: SniffedMedia;
    size: number;
    width: number | null;
    height: number | null;
    video: VideoProbe | null;
  },
  meta: MediaMeta,
): StoredMedia {
  return db().transaction(
    (tx) => {
      const last = tx
        .select({ value: max(mediaItems.displayOrder) })
        .from(mediaItems)
        .where(and(eq(mediaItems.contestId, contestId), ne(mediaItems.category, "cover-image")))
        .get();
      const item = tx
        .insert(mediaItems)
        .values({
          contestId,
          storedName: stored.storedName,
          originalName: meta.originalName,
          category: meta.category,
          mediaType: stored.kind.mediaType,
          contentType: stored.kind.contentType,
          size: stored.size,
          width: stored.width,
          height: stored.height,
          video: stored.video,
          displayOrder: (last?.value ?? -1) + 1,
          uploadedAt: now(),
        })
        .returning()
        .get();
      if (item.mediaType === "video") queueMediaJobs("sample", item.id, ["poster"], tx);
      return item;
    },
    { behavior: "immediate" },
  );
}

/**
 * Turns a complete file in the scratch folder (the plain form's) into a media item: checks
 * what its bytes are, stores it under a name the shop chooses and appends it to the contest's
 * content. The file is removed when it is refused.
 */
export async function storeUploadedFile(
  contestId: number,
  file: string,
  meta: MediaMeta,
): Promise<{ ok: true; item: StoredMedia } | UploadFailure> {
  const refuse = async (failure: UploadFailure) => {
    await fsp.rm(file, { force: true });
    return failure;
  };
  const kind = checkMedia(readHead(file), meta);
  if ("ok" in kind) return refuse(kind);
  const read = await readMedia(kind, file, meta.originalName);
  if ("ok" in read) return refuse(read);
  const size = (await fsp.stat(file)).size;
  const storedName = newStoredName("media", kind.extension);
  await (await fileStore()).putFile(storedName, file, kind.contentType, "public");
  return { ok: true, item: insertMediaItem(contestId, { storedName, kind, size, ...read }, meta) };
}
