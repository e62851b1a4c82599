import fs from "node:fs";
import { eq } from "drizzle-orm";
import { formatBytes } from "~/lib/rules/format";
import {
  THUMBNAIL_PIXELS,
  THUMBNAIL_SIZE_ERROR_TITLE,
  thumbnailSizeMessage,
} from "~/lib/schemas/media-schemas";
import { loadSharp } from "../core/lazy-modules.server";
import { NoRoomForUpload } from "../core/out-of-space.server";
import { db } from "../db/client.server";
import { mediaItems } from "../db/schema";
import { MultipartError, multipartBoundary, readMultipart, type PartSink } from "../files/multipart.server";
import { openScratchFile, scratchDir, type ScratchFile } from "../files/scratch-file.server";
import { contentTypeOfStored } from "../core/sniff.server";
import { newStoredName, removeStoredFiles } from "../files/storage.server";
import { fileStore } from "../files/store.server";
import { refusalForBody } from "../files/upload-room.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import { findContentMedia, thumbnailUrl } from "./library.server";

/** A thumbnail file (however sent) is refused past this size: 1080×1080 images are far smaller. */
export const MAX_THUMBNAIL_BYTES = 10_000_000;

export const THUMBNAIL_TOO_BIG = `画像が大きすぎます（${formatBytes(MAX_THUMBNAIL_BYTES)} まで）`;

export type MediaFailure = { ok: false; status: 400 | 404 | 413 | 415; title: string; message: string };
const fail = (status: MediaFailure["status"], title: string, message: string): MediaFailure => ({
  ok: false,
  status,
  title,
  message,
});

/**
 * Attaches a thumbnail: the bytes must be an image (read by sharp, not by the name or the
 * browser's type) of exactly 1080×1080, or the answer is サイズエラー. Replaces an older one.
 * `image` is the bytes, or the path of a scratch file (readThumbnailForm's), which is removed here.
 */
export async function setThumbnail(
  contestId: number,
  mediaId: number,
  image: Buffer | string,
): Promise<{ ok: true; thumbnailUrl: string } | MediaFailure> {
  try {
    return await attachThumbnail(contestId, mediaId, image);
  } catch (error) {
    if (error instanceof NoRoomForUpload) return fail(413, "エラー", error.message);
    throw error;
  } finally {
    // A scratch file (a multipart upload) is stored or refused by now; either way it goes.
    if (typeof image === "string") fs.rmSync(image, { force: true });
  }
}

async function attachThumbnail(
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
  if (typeof image === "string") await store.putFile(storedName, image, contentType, "public");
  else await store.putBytes(storedName, image, contentType, "public");
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
 * part is streamed to a scratch file, capped at MAX_THUMBNAIL_BYTES. Other small fields
 * are returned as text. The file, when there is one, is for setThumbnail (which removes it).
 */
export async function readThumbnailForm(
  request: Request,
): Promise<{ ok: true; file: string | null; fields: Map<string, string> } | MediaFailure> {
  if (declaredOver(request, MAX_THUMBNAIL_BYTES + MULTIPART_SLACK_BYTES))
    return fail(413, "エラー", THUMBNAIL_TOO_BIG);
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return fail(400, "エラー", "画像ファイルを選択してください");
  const noRoom = await refusalForBody(await scratchDir(), request);
  if (noRoom) return fail(413, "エラー", noRoom.message);
  const fields = new Map<string, string>();
  const got: { scratch: ScratchFile | null } = { scratch: null };
  try {
    await readMultipart(request.body, boundary, async (part): Promise<PartSink | null> => {
      if (part.filename === null) return smallTextField((value) => fields.set(part.name, value));
      if (part.name !== "thumbnail" || got.scratch || part.filename === "") return null;
      got.scratch = await openScratchFile("thumb", "upload", MAX_THUMBNAIL_BYTES);
      return got.scratch.sink;
    });
  } catch (error) {
    await got.scratch?.discard();
    if (error instanceof MultipartError)
      return fail(400, "エラー", "送信内容を読み取れませんでした。もう一度お試しください。");
    if (error instanceof NoRoomForUpload) return fail(413, "エラー", error.message);
    throw error;
  }
  const { scratch } = got;
  if (!scratch) return { ok: true, file: null, fields };
  await scratch.handle.close();
  if (scratch.sink.tooBig() || scratch.sink.received() === 0) {
    await scratch.discard();
    if (scratch.sink.tooBig()) return fail(413, "エラー", THUMBNAIL_TOO_BIG);
    return { ok: true, file: null, fields };
  }
  return { ok: true, file: scratch.file, fields };
}

/** A text field of up to 1 KiB; a longer one is read to its end and left out. */
function smallTextField(keep: (value: string) => void): PartSink {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    async write(bytes) {
      size += bytes.length;
      if (size <= 1024) chunks.push(Buffer.from(bytes));
    },
    async end() {
      if (size <= 1024) keep(Buffer.concat(chunks).toString("utf8"));
    },
  };
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

/** The content tab's thumbnail form (multipart, with or without JavaScript): its `thumbnail` file, attached. */
export async function receiveThumbnailForm(
  contestId: number,
  mediaId: number,
  request: Request,
): Promise<{ ok: true } | MediaFailure> {
  const form = await readThumbnailForm(request);
  if (!form.ok) return form;
  if (!form.file) return fail(400, "エラー", "画像ファイルを選択してください");
  const result = await setThumbnail(contestId, mediaId, form.file);
  return result.ok ? { ok: true } : result;
}
