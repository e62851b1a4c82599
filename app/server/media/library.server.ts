import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, ne } from "drizzle-orm";
import {
  THUMBNAIL_PIXELS,
  THUMBNAIL_SIZE_ERROR_TITLE,
  thumbnailSizeMessage,
} from "~/lib/schemas/media-schemas";
import { db, type Tx } from "../db/client.server";
import { mediaItems } from "../db/schema";
import { newStoredName, removeStoredFiles } from "../files/storage.server";
import { fileStore } from "../files/store.server";
import { MultipartError, multipartBoundary, readMultipart, type PartSink } from "../files/multipart.server";
import { contentTypeOfStored } from "../files/sniff.server";
import { uploadsDir } from "./uploads.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import { loadSharp } from "../core/lazy-modules.server";

/** A thumbnail file (however sent) is refused past this size: 1080×1080 images are far smaller. */
export const MAX_THUMBNAIL_BYTES = 10 * 1024 * 1024;

export type ContentMediaItem = {
  id: number;
  originalName: string;
  mediaType: "video" | "image";
  contentType: string;
  category: string;
  size: number;
  width: number | null;
  height: number | null;
  displayOrder: number;
  uploadedAt: string;
  /** The file itself, for admins (Range, cache headers). */
  fileUrl: string;
  thumbnailUrl: string | null;
};

export type MediaFailure = { ok: false; status: 400 | 404 | 413 | 415; title: string; message: string };
const fail = (status: MediaFailure["status"], title: string, message: string): MediaFailure => ({
  ok: false,
  status,
  title,
  message,
});

export function adminMediaUrl(contestId: number, mediaId: number): string {
  return `/admin/contest/${contestId}/media/${mediaId}`;
}

/** The spec's thumbnail call, cache-busted by the stored name (which changes with every new thumbnail). */
export function thumbnailUrl(contestId: number, mediaId: number, thumbnailStoredName: string): string {
  const version = thumbnailStoredName
    .replace(/^thumb-/, "")
    .replace(/\.[a-z0-9]+$/, "")
    .slice(0, 12);
  return `/api/video/media/thumbnail/${contestId}/${mediaId}?v=${version}`;
}

const contentOf = (contestId: number) =>
  and(eq(mediaItems.contestId, contestId), ne(mediaItems.category, "cover-image"));

function toItem(row: typeof mediaItems.$inferSelect): ContentMediaItem {
  return {
    id: row.id,
    originalName: row.originalName,
    mediaType: row.mediaType,
    contentType: row.contentType,
    category: row.category,
    size: row.size,
    width: row.width,
    height: row.height,
    displayOrder: row.displayOrder,
    uploadedAt: row.uploadedAt.toISOString(),
    fileUrl: adminMediaUrl(row.contestId, row.id),
    thumbnailUrl: row.thumbnailStoredName
      ? thumbnailUrl(row.contestId, row.id, row.thumbnailStoredName)
      : null,
  };
}

/** The contest's media as the コンテンツ管理 tab lists it (covers excluded), in display order. */
export function listContentMedia(contestId: number): ContentMediaItem[] {
  return db()
    .select()
    .from(mediaItems)
    .where(contentOf(contestId))
    .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
    .all()
    .map(toItem);
}

export function findContentMedia(contestId: number, mediaId: number) {
  return (
    db()
      .select()
      .from(mediaItems)
      .where(and(contentOf(contestId), eq(mediaItems.id, mediaId)))
      .get() ?? null
  );
}

export function toContentItem(row: typeof mediaItems.$inferSelect): ContentMediaItem {
  return toItem(row);
}

/** Rewrites display orders as 0, 1, 2… in the given id order (inside the caller's transaction). */
function rewriteOrder(tx: Tx, ids: number[]) {
  ids.forEach((id, displayOrder) =>
    tx.update(mediaItems).set({ displayOrder }).where(eq(mediaItems.id, id)).run(),
  );
}

/**
 * Moves an item to a position (0-based) by swapping it with the item there, and rewrites
 * every order so they stay 0…n-1 (the spec: reorder swaps two items and rewrites all orders).
 */
export function moveMedia(contestId: number, mediaId: number, position: number): boolean {
  return db().transaction(
    (tx) => {
      const ids = tx
        .select({ id: mediaItems.id })
        .from(mediaItems)
        .where(contentOf(contestId))
        .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
        .all()
        .map((row) => row.id);
      const from = ids.indexOf(mediaId);
      if (from < 0) return false;
      const to = Math.min(Math.max(position, 0), ids.length - 1);
      [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      rewriteOrder(tx, ids);
      return true;
    },
    { behavior: "immediate" },
  );
}

/** ↑ / ↓: swaps with the neighbour; at either end nothing changes. */
export function moveMediaBy(contestId: number, mediaId: number, direction: "up" | "down"): boolean {
  const items = listContentMedia(contestId);
  const index = items.findIndex((item) => item.id === mediaId);
  if (index < 0) return false;
  return moveMedia(contestId, mediaId, direction === "up" ? index - 1 : index + 1);
}

/** Deletes the item, its file and its thumbnail, and closes the gap in the order. */
export async function deleteMedia(contestId: number, mediaId: number): Promise<boolean> {
  const row = findContentMedia(contestId, mediaId);
  if (!row) return false;
  db().transaction(
    (tx) => {
      tx.delete(mediaItems).where(eq(mediaItems.id, row.id)).run();
      const ids = tx
        .select({ id: mediaItems.id })
        .from(mediaItems)
        .where(contentOf(contestId))
        .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
        .all()
        .map((r) => r.id);
      rewriteOrder(tx, ids);
    },
    { behavior: "immediate" },
  );
  await removeStoredFiles(row.storedName, row.thumbnailStoredName);
  return true;
}

/**
 * Attaches a thumbnail: the bytes must be an image (read by sharp, not by the name or the
 * browser's type) of exactly 1080×1080, or the answer is サイズエラー. Replaces an older one.
 */
export async function setThumbnail(
  contestId: number,
  mediaId: number,
  image: Buffer | string,
): Promise<{ ok: true; thumbnailUrl: string } | MediaFailure> {
  const row = findContentMedia(contestId, mediaId);
  if (!row) return fail(404, "エラー", "メディアが見つかりません");
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  const sharp = await loadSharp();
  try {
    ({ format, width, height } = await sharp(image).metadata());
  } catch {
    return fail(415, "エラー", "画像を読み取れませんでした。JPEG・PNG・WebP の画像を選択してください");
  }
  const extension =
    format === "jpeg" ? "jpg" : format === "png" || format === "webp" || format === "gif" ? format : null;
  if (!extension) return fail(415, "エラー", "JPEG・PNG・WebP・GIF の画像を選択してください");
  if (width !== THUMBNAIL_PIXELS || height !== THUMBNAIL_PIXELS) {
    return fail(400, THUMBNAIL_SIZE_ERROR_TITLE, thumbnailSizeMessage(width, height));
  }
  const storedName = newStoredName("thumb", extension);
  const store = await fileStore();
  const contentType = contentTypeOfStored(storedName) ?? "";
  if (typeof image === "string") await store.putFile(storedName, image, contentType);
  else await store.putBytes(storedName, image, contentType);
  db().update(mediaItems).set({ thumbnailStoredName: storedName }).where(eq(mediaItems.id, row.id)).run();
  await removeStoredFiles(row.thumbnailStoredName);
  return { ok: true, thumbnailUrl: thumbnailUrl(contestId, mediaId, storedName) };
}

export async function removeThumbnail(contestId: number, mediaId: number): Promise<boolean> {
  const row = findContentMedia(contestId, mediaId);
  if (!row) return false;
  db().update(mediaItems).set({ thumbnailStoredName: null }).where(eq(mediaItems.id, row.id)).run();
  await removeStoredFiles(row.thumbnailStoredName);
  return true;
}

/** A data URL's bytes, or null when it is not one (the size is capped before decoding). */
export function decodeDataUrl(dataUrl: string): Buffer | null | "too-big" {
  const match = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) return null;
  const base64 = match[1]!.replace(/\s/g, "");
  if ((base64.length * 3) / 4 > MAX_THUMBNAIL_BYTES) return "too-big";
  return Buffer.from(base64, "base64");
}

/**
 * A multipart thumbnail (the no-JS form, or a client that sends a file): the `thumbnail`
 * part is streamed to a temporary file, capped at MAX_THUMBNAIL_BYTES. Other small fields
 * are returned as text.
 */
export async function readThumbnailForm(
  request: Request,
): Promise<{ ok: true; file: string | null; fields: Map<string, string> } | MediaFailure> {
  if (declaredOver(request, MAX_THUMBNAIL_BYTES + MULTIPART_SLACK_BYTES))
    return fail(413, "エラー", "画像が大きすぎます（10 MB まで）");
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return fail(400, "エラー", "画像ファイルを選択してください");
  const scratch = await uploadsDir();
  fs.mkdirSync(scratch, { recursive: true });
  const fields = new Map<string, string>();
  const got: { file: string | null; handle: fsp.FileHandle | null; size: number } = {
    file: null,
    handle: null,
    size: 0,
  };
  try {
    await readMultipart(request.body, boundary, async (part): Promise<PartSink | null> => {
      if (part.filename === null) {
        const chunks: Buffer[] = [];
        let size = 0;
        return {
          async write(bytes) {
            size += bytes.length;
            if (size <= 1024) chunks.push(Buffer.from(bytes));
          },
          async end() {
            if (size <= 1024) fields.set(part.name, Buffer.concat(chunks).toString("utf8"));
          },
        };
      }
      if (part.name !== "thumbnail" || got.file || part.filename === "") return null;
      got.file = path.join(scratch, `thumb-${crypto.randomBytes(12).toString("hex")}.upload`);
      const handle = await fsp.open(got.file, "w");
      got.handle = handle;
      return {
        async write(bytes) {
          got.size += bytes.length;
          if (got.size <= MAX_THUMBNAIL_BYTES) await handle.write(bytes);
        },
        async end() {
          await handle.close();
          got.handle = null;
        },
      };
    });
  } catch (error) {
    await got.handle?.close().catch(() => undefined);
    if (got.file) fs.rmSync(got.file, { force: true });
    if (error instanceof MultipartError)
      return fail(400, "エラー", "送信内容を読み取れませんでした。もう一度お試しください。");
    throw error;
  }
  if (got.file && got.size > MAX_THUMBNAIL_BYTES) {
    fs.rmSync(got.file, { force: true });
    return fail(413, "エラー", "画像が大きすぎます（10 MB まで）");
  }
  if (got.file && got.size === 0) {
    fs.rmSync(got.file, { force: true });
    got.file = null;
  }
  return { ok: true, file: got.file, fields };
}

/** The stored file of a content item, for the admin preview. */
export function mediaFile(
  contestId: number,
  mediaId: number,
): { storedName: string; contentType: string; name: string } | null {
  const row = findContentMedia(contestId, mediaId);
  return row ? { storedName: row.storedName, contentType: row.contentType, name: row.originalName } : null;
}

/** A thumbnail file: for admins always, for visitors only when the item itself is public. */
export function thumbnailFile(
  contestId: number,
  mediaId: number,
): { thumbnailName: string; contentType: string; storedName: string; category: string } | null {
  const row = findContentMedia(contestId, mediaId);
  if (!row?.thumbnailStoredName) return null;
  const contentType = contentTypeOfStored(row.thumbnailStoredName);
  return contentType
    ? {
        thumbnailName: row.thumbnailStoredName,
        contentType,
        storedName: row.storedName,
        category: row.category,
      }
    : null;
}
