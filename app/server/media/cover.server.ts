import fs from "node:fs";
import path from "node:path";
import {
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createFileUploadHandler as createFileUploadHandler,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type NodeOnDiskFile,
} from "@remix-run/node";
import { and, desc, eq, lt } from "drizzle-orm";
import sharp from "sharp";
import { sniffMedia } from "./uploads.server";
import { db } from "../db/client.server";
import { mediaItems } from "../db/schema";
import { COVER_WIDTHS, coverVariantName, mediaDir, mediaUrl, newStoredName, removeStoredFile, writeCoverVariants } from "../files/storage.server";

/** A cover is a photo, not a video: far below the video limit, far above any sensible 1920x1080 image. */
export const COVER_MAX_BYTES = 20 * 1024 * 1024;
export const RECOMMENDED_COVER = { width: 1920, height: 1080 } as const;

const IMAGE_TYPES = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
} as const;
type ImageKind = keyof typeof IMAGE_TYPES;

/** What a file's first bytes say it is; the name and the browser's content type are not trusted. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  // The shop's one reading of magic bytes; a cover is a photo, so not a GIF.
  const kind = sniffMedia(head);
  return kind?.mediaType === "image" && kind.extension !== "gif" ? (kind.extension as ImageKind) : null;
}

export type CurrentCover = { id: number; url: string; originalUrl: string; originalName: string; width: number | null; height: number | null; size: number; uploadedAt: Date };

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

export type CoverUploadResult = { ok: true; width: number; height: number } | { ok: false; status: 400 | 413; message: string };

const NOT_AN_IMAGE = "JPEG・PNG・WebP形式の画像ファイルを選択してください";

/**
 * Takes the upload form's `cover` file: streamed to disk under a name the shop chooses
 * (never held whole in memory), checked by its magic bytes and by decoding it, then stored
 * as the contest's cover with its storefront variants. The older covers and their files go.
 */
export async function receiveCover(request: Request, contestId: number): Promise<CoverUploadResult> {
  const written: string[] = [];
  let uploadedName = "";
  const discard = () => written.forEach((name) => fs.rmSync(path.join(mediaDir(), name), { force: true }));
  const fileHandler = createFileUploadHandler({
    directory: mediaDir(),
    avoidFileConflicts: false,
    maxPartSize: COVER_MAX_BYTES,
    filter: ({ name, filename }) => name === "cover" && Boolean(filename),
    file: ({ filename }) => {
      // Kept only to show the admin which file this was; never used as a path.
      uploadedName = filename ?? "";
      const name = newStoredName("cover", "upload");
      written.push(name);
      return name;
    },
  });
  let form: FormData;
  try {
    fs.mkdirSync(mediaDir(), { recursive: true });
    form = await parseMultipartFormData(request, composeUploadHandlers(fileHandler, createMemoryUploadHandler({ maxPartSize: 4 * 1024 })));
  } catch (error) {
    discard();
    await drain(request);
    if (error instanceof MaxPartSizeExceededError) return { ok: false, status: 413, message: `ファイルが大きすぎます（${COVER_MAX_BYTES / 1024 / 1024}MBまで）` };
    return { ok: false, status: 400, message: "送信内容を読み取れませんでした。もう一度お試しください。" };
  }
  const file = form.get("cover");
  if (!file || typeof file === "string" || file.size === 0) {
    discard();
    return { ok: false, status: 400, message: "画像ファイルを選択してください" };
  }
  const onDisk = file as unknown as NodeOnDiskFile;
  const source = onDisk.getFilePath();
  const head = Buffer.alloc(12);
  const handle = fs.openSync(source, "r");
  try {
    fs.readSync(handle, head, 0, head.length, 0);
  } finally {
    fs.closeSync(handle);
  }
  const kind = sniffImage(head);
  if (!kind) {
    discard();
    return { ok: false, status: 400, message: NOT_AN_IMAGE };
  }
  const size = fs.statSync(source).size;
  const storedName = path.basename(source).replace(/\.upload$/, `.${kind}`);
  fs.renameSync(source, path.join(mediaDir(), storedName));
  written.push(storedName);
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(path.join(mediaDir(), storedName)).metadata();
    if (!metadata.width || !metadata.height) throw new Error("no size");
    width = metadata.width;
    height = metadata.height;
    await writeCoverVariants(storedName);
  } catch {
    // Right magic bytes but no picture behind them (truncated, corrupt, or disguised).
    discard();
    for (const variantWidth of COVER_WIDTHS) removeStoredFile(coverVariantName(storedName, variantWidth));
    return { ok: false, status: 400, message: "画像を読み取れませんでした。別の画像ファイルを選択してください" };
  }
  const originalName = (path.basename(uploadedName.replace(/\\/g, "/")) || "cover").slice(0, 200);
  const created = db()
    .insert(mediaItems)
    .values({ contestId, storedName, originalName, category: "cover-image", mediaType: "image", contentType: IMAGE_TYPES[kind], size, width, height })
    .returning({ id: mediaItems.id })
    .get();
  removeOlderCovers(contestId, created.id);
  return { ok: true, width, height };
}

/**
 * Only the newest cover is ever shown, so the older ones (rows, files and variants) are
 * deleted. Older means a smaller id: two uploads finishing together then still leave one.
 */
function removeOlderCovers(contestId: number, keepId: number) {
  const older = db()
    .delete(mediaItems)
    .where(and(eq(mediaItems.contestId, contestId), eq(mediaItems.category, "cover-image"), lt(mediaItems.id, keepId)))
    .returning({ storedName: mediaItems.storedName, thumb: mediaItems.thumbnailStoredName })
    .all();
  for (const item of older) {
    removeStoredFile(item.storedName);
    removeStoredFile(item.thumb);
    for (const width of COVER_WIDTHS) removeStoredFile(coverVariantName(item.storedName, width));
  }
}

/**
 * Reads what is left of a refused upload, so the browser gets our answer instead of a
 * reset connection. Bounded, so a client that never stops sending cannot keep us busy.
 */
async function drain(request: Request) {
  try {
    const reader = request.body?.getReader();
    if (!reader) return;
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > 4 * COVER_MAX_BYTES) {
        await reader.cancel();
        break;
      }
    }
  } catch {
    // The body was already consumed or locked: nothing left to read.
  }
}
