import { eq } from "drizzle-orm";
import { NoRoomForUpload } from "../core/out-of-space.server";
import { db } from "../db/client.server";
import { mediaUploads } from "../db/schema";
import { SNIFF_BYTES, type SniffedMedia } from "../core/sniff.server";
import { fileStore } from "../files/store.server";
import { withVideoSource } from "./video-source.server";
import {
  checkMedia,
  contentCategoryOf,
  insertMediaItem,
  NEW_MEDIA_ERRORS,
  readMedia,
  type MediaMeta,
  type StoredMedia,
} from "./new-media.server";
import {
  dropUpload,
  findUpload,
  reconcile,
  recordedEtags,
  storeUploadOf,
  UPLOAD_ERRORS,
  uploadFailure,
  withUploadLock,
  type UploadFailure,
  type UploadRow,
} from "./upload-rows.server";

/** A chunked upload stored whole, as the one who adopts it sees it. */
export type CompletedUpload = { storedName: string; originalName: string; size: number; head: Buffer };

/** What becomes of a delivery upload: a delivery file, or a refusal (its stored file is then deleted). */
export type DeliveryAdoption<D> = { ok: true; deliveryFile: D } | UploadFailure;

type Completed<D> = { ok: true; item: StoredMedia } | DeliveryAdoption<D>;

/**
 * POST …/media/chunked-complete: every chunk stored, the size right, the bytes a video or
 * image. A delivery upload becomes a delivery file of the contest instead of a media item, made
 * by `adoptDelivery` (delivery/delivery-upload.server.ts): delivery builds on media, not back.
 */
export async function completeChunkedUpload<D>(
  contestId: number,
  uploadId: string,
  adoptDelivery: (contestId: number, upload: CompletedUpload) => Promise<DeliveryAdoption<D>>,
): Promise<Completed<D>> {
  return withUploadLock(uploadId, async () => {
    const found = findUpload(contestId, uploadId);
    if (!found) return uploadFailure(404, UPLOAD_ERRORS.notFound);
    try {
      const row = await reconcile(found);
      const upload = storeUploadOf(row);
      if (row.receivedChunks < row.totalChunks || !upload)
        return uploadFailure(
          409,
          `まだすべてのチャンクを受信していません（${row.receivedChunks}/${row.totalChunks}）`,
        );
      const recorded = recordedEtags(row.id);
      const etags = Array.from({ length: row.totalChunks }, (_, index) => recorded.get(index + 1) ?? null);
      const store = await fileStore();
      if (!(await store.chunks.complete(upload, etags))) {
        // The store does not hold what the shop counted: the file is sent again from the start.
        await dropUpload(row);
        return uploadFailure(409, UPLOAD_ERRORS.sizeMismatch);
      }
      db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
      if ((await store.stat(upload.storedName))?.size !== row.fileSize) {
        await store.remove(upload.storedName);
        return uploadFailure(409, UPLOAD_ERRORS.sizeMismatch);
      }
      return await adoptStoredUpload(contestId, row, upload.storedName, adoptDelivery);
    } catch (error) {
      // An image from a bucket is measured from a copy on this disk, which keeps the reserve too.
      if (error instanceof NoRoomForUpload) return uploadFailure(413, error.message);
      console.error("[uploads] completing an upload failed", error);
      return uploadFailure(503, UPLOAD_ERRORS.storeUnavailable);
    }
  });
}

/**
 * A completed chunked upload, already stored under the name its first chunk gave it: its whole
 * first bytes are checked again (a name from a chunk 0 sent again with other bytes must not
 * stand), and it becomes a media item, or a delivery file. A refused file is deleted.
 */
async function adoptStoredUpload<D>(
  contestId: number,
  row: UploadRow,
  storedName: string,
  adoptDelivery: (contestId: number, upload: CompletedUpload) => Promise<DeliveryAdoption<D>>,
): Promise<Completed<D>> {
  const store = await fileStore();
  const head = await store.readHead(storedName, SNIFF_BYTES);
  const named = (kind: SniffedMedia) => storedName.endsWith(`.${kind.extension}`);
  const refuse = async (failure: UploadFailure) => {
    await store.remove(storedName);
    return failure;
  };
  if (row.purpose === "delivery") {
    const adopted = await adoptDelivery(contestId, {
      storedName,
      originalName: row.originalName,
      size: row.fileSize,
      head,
    });
    return adopted.ok ? adopted : refuse(adopted);
  }
  const meta: MediaMeta = {
    originalName: row.originalName,
    expectedType: row.mediaType,
    category: contentCategoryOf(row.category),
  };
  const kind = checkMedia(head, meta);
  if ("ok" in kind) return refuse(kind);
  if (!named(kind)) return refuse(uploadFailure(415, NEW_MEDIA_ERRORS.notMedia(row.originalName)));
  // Images pass through this server once, to be measured (object storage: a scratch copy).
  const read =
    kind.mediaType === "image"
      ? await store.withLocalCopy(storedName, (file) => readMedia(kind, file, row.originalName))
      : await withVideoSource(storedName, kind.extension, (input) =>
          readMedia(kind, input.source, row.originalName),
        );
  if ("ok" in read) return refuse(read);
  return {
    ok: true,
    item: insertMediaItem(contestId, { storedName, kind, size: row.fileSize, ...read }, meta),
  };
}
