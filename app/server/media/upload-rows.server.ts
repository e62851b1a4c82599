import { and, eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { mediaUploadParts, mediaUploads } from "../db/schema";
import { chunkLength, fileStore, type ChunkedUpload } from "../files/store.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * A chunked upload's row: what the browser said it would send, how far it got, and (once its
 * first chunk named it) the store's upload it goes into. Every step of an upload starts here.
 */
export type UploadRow = typeof mediaUploads.$inferSelect;

/** An upload nobody has added to for this long is abandoned: its row and stored parts go. */
export const STALE_UPLOAD_MS = DAY_MS;

export type UploadFailure = { ok: false; status: 400 | 404 | 409 | 413 | 415 | 503; message: string };
export type UploadState = {
  uploadId: string;
  chunkSize: number;
  totalChunks: number;
  receivedChunks: number;
  fileName: string;
  fileSize: number;
};

export const uploadFailure = (status: UploadFailure["status"], message: string): UploadFailure => ({
  ok: false,
  status,
  message,
});

export const UPLOAD_ERRORS = {
  storeUnavailable: "保存先に接続できませんでした。しばらくしてからもう一度お試しください。",
  notFound: "アップロードが見つかりません。最初からやり直してください。",
  sizeMismatch: "ファイルのサイズが一致しません。アップロードをやり直してください。",
} as const;

/** The upload as the store knows it, once its first chunk has named it. */
export function storeUploadOf(row: UploadRow): ChunkedUpload | null {
  if (!row.storedName || !row.storeUploadId) return null;
  return {
    uploadId: row.id,
    storedName: row.storedName,
    storeUploadId: row.storeUploadId,
    chunkSize: row.chunkSize,
    fileSize: row.fileSize,
    totalChunks: row.totalChunks,
  };
}

export function stateOf(row: UploadRow): UploadState {
  return {
    uploadId: row.id,
    chunkSize: row.chunkSize,
    totalChunks: row.totalChunks,
    receivedChunks: row.receivedChunks,
    fileName: row.originalName,
    fileSize: row.fileSize,
  };
}

export function findUpload(contestId: number, uploadId: string): UploadRow | null {
  return (
    db()
      .select()
      .from(mediaUploads)
      .where(and(eq(mediaUploads.id, uploadId), eq(mediaUploads.contestId, contestId)))
      .get() ?? null
  );
}

export function lastActivity(row: UploadRow): number {
  return Math.max(row.createdAt.getTime(), row.lastChunkAt?.getTime() ?? 0);
}

/** Whether the upload was added to within STALE_UPLOAD_MS of `at` (an older one is no longer offered). */
export function isFresh(row: UploadRow, at: number): boolean {
  return lastActivity(row) >= at - STALE_UPLOAD_MS;
}

/** Drops an upload: its row (and recorded parts) and whatever the store holds of it. */
export async function dropUpload(row: UploadRow): Promise<void> {
  db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
  const upload = storeUploadOf(row);
  if (upload) await (await fileStore()).chunks.abort(upload);
}

/** The ETag the store gave for each part the shop took, by part number (null where it gave none). */
export function recordedEtags(uploadId: string): Map<number, string | null> {
  return new Map(
    db()
      .select()
      .from(mediaUploadParts)
      .where(eq(mediaUploadParts.uploadId, uploadId))
      .all()
      .map((part) => [part.partNumber, part.etag]),
  );
}

const bareEtag = (etag: string | null | undefined) => (etag ?? "").replace(/"/g, "");

/**
 * receivedChunks as the store can back it: after a crash the store is the truth (S3's ListParts,
 * the part file's length). A chunk counts while its part is there with its size and, when the
 * store gave one, the ETag recorded when it was taken; the count never rises here (a part stored
 * just before a crash is sent again). An upload the store no longer has starts over.
 */
export async function reconcile(row: UploadRow): Promise<UploadRow> {
  if (row.receivedChunks === 0) return row;
  const upload = storeUploadOf(row);
  const parts = upload ? await (await fileStore()).chunks.parts(upload) : null;
  if (!parts) {
    db().delete(mediaUploadParts).where(eq(mediaUploadParts.uploadId, row.id)).run();
    db()
      .update(mediaUploads)
      .set({ receivedChunks: 0, storeUploadId: null, storedName: null })
      .where(eq(mediaUploads.id, row.id))
      .run();
    return { ...row, receivedChunks: 0, storeUploadId: null, storedName: null };
  }
  const recorded = recordedEtags(row.id);
  const stored = new Map(parts.map((part) => [part.partNumber, part]));
  let backed = 0;
  while (backed < row.receivedChunks) {
    const part = stored.get(backed + 1);
    const etag = recorded.get(backed + 1);
    if (!part || part.size !== chunkLength(row, backed)) break;
    // A part the store names by ETag counts only as the one the shop took (S3 keeps a part sent
    // again whole, even one whose request the shop refused or never saw answered).
    if (part.etag && bareEtag(part.etag) !== bareEtag(etag)) break;
    backed++;
  }
  if (backed === row.receivedChunks) return row;
  db().update(mediaUploads).set({ receivedChunks: backed }).where(eq(mediaUploads.id, row.id)).run();
  return { ...row, receivedChunks: backed };
}

/** The upload's state once reconciled with the store, or a 503 when the store does not answer. */
export async function reconciledState(
  row: UploadRow,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  try {
    return { ok: true, upload: stateOf(await reconcile(row)) };
  } catch (error) {
    console.error("[uploads] the store did not answer", error);
    return uploadFailure(503, UPLOAD_ERRORS.storeUnavailable);
  }
}

// One chunk at a time per upload in this process: a retried request waits for the first.
const uploadLocks = new Map<string, Promise<unknown>>();

export async function withUploadLock<T>(uploadId: string, work: () => Promise<T>): Promise<T> {
  const previous = uploadLocks.get(uploadId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(work);
  uploadLocks.set(uploadId, run);
  try {
    return await run;
  } finally {
    if (uploadLocks.get(uploadId) === run) uploadLocks.delete(uploadId);
  }
}

/**
 * Takes the upload's lock and keeps it until the returned release is called: for a chunk whose
 * bytes are still arriving, so the lock spans the rest of the request, not one function call.
 */
export async function holdUploadLock(uploadId: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await new Promise<void>((acquired) => {
    void withUploadLock(uploadId, () => {
      acquired();
      return held;
    });
  });
  return release;
}
