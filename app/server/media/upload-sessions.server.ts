import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { ChunkedInit } from "~/lib/schemas/media-schemas";
import { formatBytes } from "~/lib/rules/format";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { mediaUploads, type UPLOAD_PURPOSES } from "../db/schema";
import { cleanFileName } from "../files/storage.server";
import { refusalForStoring } from "../files/upload-room.server";
import {
  dropUpload,
  findUpload,
  isFresh,
  reconcile,
  reconciledState,
  stateOf,
  UPLOAD_ERRORS,
  uploadFailure,
  withUploadLock,
  type UploadFailure,
  type UploadRow,
  type UploadState,
} from "./upload-rows.server";

type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

function totalChunksFor(fileSize: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(fileSize / chunkSize));
}

/**
 * An unfinished upload of the same file (name, size, type) for the same tab of the contest:
 * the one whose id the browser kept, or else the newest one still fresh.
 */
function unfinishedUploadOf(contestId: number, input: ChunkedInit, originalName: string): UploadRow | null {
  const at = now().getTime();
  const sameFile = (row: UploadRow) =>
    row.purpose === input.purpose &&
    row.originalName === originalName &&
    row.fileSize === input.fileSize &&
    row.contentType === input.contentType &&
    isFresh(row, at);
  const hinted = input.uploadId ? findUpload(contestId, input.uploadId) : null;
  if (hinted && sameFile(hinted)) return hinted;
  return (
    db()
      .select()
      .from(mediaUploads)
      .where(
        and(
          eq(mediaUploads.contestId, contestId),
          eq(mediaUploads.purpose, input.purpose),
          eq(mediaUploads.originalName, originalName),
          eq(mediaUploads.fileSize, input.fileSize),
          eq(mediaUploads.contentType, input.contentType),
        ),
      )
      .orderBy(desc(mediaUploads.createdAt))
      .all()
      .find((row) => isFresh(row, at)) ?? null
  );
}

/**
 * Starts an upload, or resumes one: the id the browser kept, or else an unfinished upload
 * of the same file (name, size, type) to the same contest. The answer says which chunks
 * the server already has, so the browser sends only the rest.
 */
export async function initChunkedUpload(
  contestId: number,
  input: ChunkedInit,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } = env();
  if (input.fileSize > MAX_UPLOAD_BYTES)
    return uploadFailure(413, `ファイルが大きすぎます（上限 ${formatBytes(MAX_UPLOAD_BYTES)}）`);
  const originalName = cleanFileName(input.fileName);
  const existing = unfinishedUploadOf(contestId, input, originalName);
  const resumed = existing ? await reconciledState(existing) : null;
  if (resumed && !resumed.ok) return resumed;
  // Refused at the start when the whole file (what is still to come of it) would not fit above the reserve.
  const stored = resumed
    ? Math.min(resumed.upload.receivedChunks * resumed.upload.chunkSize, input.fileSize)
    : 0;
  const noRoom = await refusalForStoring(input.fileSize - stored);
  if (noRoom) return uploadFailure(413, noRoom.message);
  if (resumed) return resumed;

  const row = db()
    .insert(mediaUploads)
    .values({
      id: crypto.randomBytes(16).toString("hex"),
      purpose: input.purpose,
      contestId,
      originalName,
      fileSize: input.fileSize,
      contentType: input.contentType,
      mediaType: input.mediaType,
      category: input.category,
      chunkSize: UPLOAD_CHUNK_BYTES,
      totalChunks: totalChunksFor(input.fileSize, UPLOAD_CHUNK_BYTES),
      receivedChunks: 0,
      createdAt: now(),
    })
    .returning()
    .get();
  return { ok: true, upload: stateOf(row) };
}

/** GET …/media/chunked-status: how far an upload got, counted as the store can back it. */
export async function uploadStatus(
  contestId: number,
  uploadId: string,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const row = findUpload(contestId, uploadId);
  if (!row) return uploadFailure(404, UPLOAD_ERRORS.notFound);
  return reconciledState(row);
}

/**
 * Unfinished uploads of a contest for one tab, newest first (the tab offers to resume or discard
 * them); an abandoned one is no longer offered, and the hourly clean-up removes it.
 */
export async function listPendingUploads(
  contestId: number,
  purpose: UploadPurpose = "media",
): Promise<UploadState[]> {
  const at = now().getTime();
  const rows = db()
    .select()
    .from(mediaUploads)
    .where(and(eq(mediaUploads.contestId, contestId), eq(mediaUploads.purpose, purpose)))
    .orderBy(desc(mediaUploads.createdAt))
    .all()
    .filter((row) => isFresh(row, at));
  const states: UploadState[] = [];
  for (const row of rows) states.push(stateOf(await reconcile(row).catch(() => row)));
  return states;
}

/** The tab's 破棄: the upload and whatever the store holds of it go (after a chunk under way). */
export async function discardUpload(contestId: number, uploadId: string): Promise<boolean> {
  const row = findUpload(contestId, uploadId);
  if (!row) return false;
  await withUploadLock(row.id, () => dropUpload(row));
  return true;
}
