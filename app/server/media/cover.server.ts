import fsp from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "~/lib/rules/format";
import { and, desc, eq, lt } from "drizzle-orm";
import { db } from "../db/client.server";
import { mediaItems } from "../db/schema";
import {
  coverFileNames,
  coverVariantName,
  mediaUrl,
  newStoredName,
  removeStoredFiles,
  writeCoverVariants,
} from "../files/storage.server";
import { fileStore } from "../files/store.server";
import { spoolMultipartForm } from "../files/multipart.server";
import { MULTIPART_SLACK_BYTES } from "../http/form.server";
import { CONTENT_TYPES, readHead, sniffImage } from "../core/sniff.server";
import { loadSharp } from "../core/lazy-modules.server";
import { NoRoomForUpload } from "../core/out-of-space.server";

/** A cover is a photo, not a video: far below the video limit, far above any sensible 1920x1080 image. */
export const COVER_MAX_BYTES = 20_000_000;
export const RECOMMENDED_COVER = { width: 1920, height: 1080 } as const;

export type CurrentCover = {
  id: number;
  url: string;
  originalUrl: string;
  originalName: string;
  width: number | null;
  height: number | null;
  size: number;
  uploadedAt: Date;
};

/** The cover the storefront shows: the newest by upload time. */
export function currentCover(contestId: number): CurrentCover | null {
  const row = db()
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.contestId, contestId), eq(mediaItems.category, "cover-image")))
    .orderBy(desc(mediaItems.uploadedAt), desc(mediaItems.id))
    .get();
  if (!row) return null;
  return {
    id: row.id,
    url: mediaUrl(coverVariantName(row.storedName, 960)),
    originalUrl: mediaUrl(row.storedName),
    originalName: row.originalName,
    width: row.width,
    height: row.height,
    size: row.size,
    uploadedAt: row.uploadedAt,
  };
}

export type CoverUploadResult =
  { ok: true; width: number; height: number } | { ok: false; status: 400 | 413; message: string };

const NOT_AN_IMAGE = "JPEG・PNG・WebP形式の画像ファイルを選択してください";

/**
 * Takes the upload form's `cover` file: streamed to this server's scratch folder under a name
 * the shop chooses (never held whole in memory), checked by its magic bytes and by decoding it,
 * then stored as the contest's cover with its storefront variants. The older covers and their
 * files go.
 */
export async function receiveCover(request: Request, contestId: number): Promise<CoverUploadResult> {
  const store = await fileStore();
  const form = await spoolMultipartForm(request, {
    directory: store.scratchDir(),
    isFile: (part) => part.name === "cover",
    storedName: () => newStoredName("cover", "upload"),
    maxFileBytes: COVER_MAX_BYTES,
    maxFieldBytes: 4 * 1024,
    maxBodyBytes: COVER_MAX_BYTES + MULTIPART_SLACK_BYTES,
  });
  if (!form.ok) {
    if (form.reason === "no-room") return { ok: false, status: 413, message: form.refusal.message };
    if (form.reason === "too-large")
      return {
        ok: false,
        status: 413,
        message: `ファイルが大きすぎます（${formatBytes(COVER_MAX_BYTES)}まで）`,
      };
    return { ok: false, status: 400, message: "送信内容を読み取れませんでした。もう一度お試しください。" };
  }
  const discard = () => Promise.all(form.files.map((file) => fsp.rm(file.path, { force: true })));
  // Only the first `cover` counts, as a form field does; any other is not kept.
  const [file] = form.files;
  if (!file || file.size === 0) {
    await discard();
    return { ok: false, status: 400, message: "画像ファイルを選択してください" };
  }
  const source = file.path;
  // Kept only to show the admin which file this was; never used as a path.
  const uploadedName = file.fileName;
  const kind = sniffImage(readHead(source));
  if (!kind) {
    await discard();
    return { ok: false, status: 400, message: NOT_AN_IMAGE };
  }
  const storedName = file.storedName.replace(/\.upload$/, `.${kind}`);
  let width: number;
  let height: number;
  const sharp = await loadSharp();
  try {
    const metadata = await sharp(source).metadata();
    if (!metadata.width || !metadata.height) throw new Error("no size");
    width = metadata.width;
    height = metadata.height;
    await writeCoverVariants(storedName, source);
  } catch (error) {
    await discard();
    await removeStoredFiles(...coverFileNames(storedName));
    if (error instanceof NoRoomForUpload) return { ok: false, status: 413, message: error.message };
    // Right magic bytes but no picture behind them (truncated, corrupt, or disguised).
    return {
      ok: false,
      status: 400,
      message: "画像を読み取れませんでした。別の画像ファイルを選択してください",
    };
  }
  await store.putFile(storedName, source, CONTENT_TYPES[kind], "public");
  await discard();
  const originalName = (path.basename(uploadedName.replace(/\\/g, "/")) || "cover").slice(0, 200);
  const created = db()
    .insert(mediaItems)
    .values({
      contestId,
      storedName,
      originalName,
      category: "cover-image",
      mediaType: "image",
      contentType: CONTENT_TYPES[kind],
      size: file.size,
      width,
      height,
    })
    .returning({ id: mediaItems.id })
    .get();
  await removeOlderCovers(contestId, created.id);
  return { ok: true, width, height };
}

/**
 * Only the newest cover is ever shown, so the older ones (rows, files and variants) are
 * deleted. Older means a smaller id: two uploads finishing together then still leave one.
 */
async function removeOlderCovers(contestId: number, keepId: number) {
  const older = db()
    .delete(mediaItems)
    .where(
      and(
        eq(mediaItems.contestId, contestId),
        eq(mediaItems.category, "cover-image"),
        lt(mediaItems.id, keepId),
      ),
    )
    .returning({ storedName: mediaItems.storedName, thumb: mediaItems.thumbnailStoredName })
    .all();
  for (const item of older) await removeStoredFiles(...coverFileNames(item.storedName), item.thumb);
}
