import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, max, ne } from "drizzle-orm";
import type { ChunkedInit } from "~/lib/media-schemas";
import { CONTENT_CATEGORIES, formatBytes } from "~/lib/media-schemas";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { mediaItems, mediaUploads, UPLOAD_PURPOSES } from "../db/schema";
import { storeDeliveryFile, type DeliveryFile } from "../delivery/delivery-files.server";
import { env } from "../core/env.server";
import { cleanFileName, mediaDir, newStoredName } from "../files/storage.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import {
  fileSink,
  MultipartError,
  multipartBoundary,
  readMultipart,
  textField,
  WRITE_BUFFER_BYTES,
} from "../files/multipart.server";
import { SNIFF_BYTES, sniffMedia } from "../files/sniff.server";
import { loadSharp } from "../core/lazy-modules.server";

/** An upload nobody has added to for this long is abandoned: its row and part file go. */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

export type UploadFailure = { ok: false; status: 400 | 404 | 409 | 413 | 415; message: string };
export type UploadState = {
  uploadId: string;
  chunkSize: number;
  totalChunks: number;
  receivedChunks: number;
  fileName: string;
  fileSize: number;
};
type UploadRow = typeof mediaUploads.$inferSelect;

const fail = (status: UploadFailure["status"], message: string): UploadFailure => ({
  ok: false,
  status,
  message,
});

export function uploadsDir(): string {
  return path.join(mediaDir(), "uploads");
}

/** Upload ids are 32 hex characters the shop made, so a part path cannot leave the uploads folder. */
function partPath(uploadId: string): string {
  if (!/^[a-f0-9]{32}$/.test(uploadId)) throw new Error("invalid upload id");
  return path.join(uploadsDir(), `${uploadId}.part`);
}

/** The part file for writing at any offset; created again if something removed it (its count was then reset to 0). */
async function openPart(uploadId: string): Promise<fsp.FileHandle> {
  fs.mkdirSync(uploadsDir(), { recursive: true });
  return fsp.open(partPath(uploadId), fs.constants.O_RDWR | fs.constants.O_CREAT);
}

function totalChunksFor(fileSize: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(fileSize / chunkSize));
}

function chunkLength(row: UploadRow, index: number): number {
  return index === row.totalChunks - 1 ? row.fileSize - index * row.chunkSize : row.chunkSize;
}

/** receivedChunks as the part file on disk can back it (a crash may have left it shorter). */
function reconcile(row: UploadRow): UploadRow {
  let size: number;
  try {
    size = fs.statSync(partPath(row.id)).size;
  } catch {
    size = 0;
  }
  const backed = size >= row.fileSize ? row.totalChunks : Math.floor(size / row.chunkSize);
  if (backed >= row.receivedChunks) return row;
  db().update(mediaUploads).set({ receivedChunks: backed }).where(eq(mediaUploads.id, row.id)).run();
  return { ...row, receivedChunks: backed };
}

function stateOf(row: UploadRow): UploadState {
  return {
    uploadId: row.id,
    chunkSize: row.chunkSize,
    totalChunks: row.totalChunks,
    receivedChunks: row.receivedChunks,
    fileName: row.originalName,
    fileSize: row.fileSize,
  };
}

function findUpload(contestId: number, uploadId: string): UploadRow | null {
  return (
    db()
      .select()
      .from(mediaUploads)
      .where(and(eq(mediaUploads.id, uploadId), eq(mediaUploads.contestId, contestId)))
      .get() ?? null
  );
}

function lastActivity(row: UploadRow): number {
  try {
    return Math.max(row.createdAt.getTime(), fs.statSync(partPath(row.id)).mtimeMs);
  } catch {
    return row.createdAt.getTime();
  }
}

/**
 * Removes uploads nobody has added to for 24 hours, and files in the uploads folder that
 * no upload owns (left by a crash). Cheap enough to run whenever an upload starts.
 */
export function cleanupStaleUploads(): number {
  const cutoff = now().getTime() - STALE_UPLOAD_MS;
  let removed = 0;
  for (const row of db().select().from(mediaUploads).all()) {
    if (lastActivity(row) >= cutoff) continue;
    db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
    fs.rmSync(partPath(row.id), { force: true });
    removed++;
  }
  let names: string[];
  try {
    names = fs.readdirSync(uploadsDir());
  } catch {
    return removed;
  }
  const live = new Set(
    db()
      .select({ id: mediaUploads.id })
      .from(mediaUploads)
      .all()
      .map((row) => `${row.id}.part`),
  );
  const orphanCutoff = now().getTime() - 60 * 60 * 1000;
  for (const name of names) {
    if (live.has(name)) continue;
    const file = path.join(uploadsDir(), name);
    try {
      if (fs.statSync(file).mtimeMs < orphanCutoff) {
        fs.rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // already gone
    }
  }
  return removed;
}

/**
 * Starts an upload, or resumes one: the id the browser kept, or else an unfinished upload
 * of the same file (name, size, type) to the same contest. The answer says which chunks
 * the server already has, so the browser sends only the rest.
 */
export function initChunkedUpload(
  contestId: number,
  input: ChunkedInit,
): { ok: true; upload: UploadState } | UploadFailure {
  const { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } = env();
  if (input.fileSize > MAX_UPLOAD_BYTES)
    return fail(413, `ファイルが大きすぎます（上限 ${formatBytes(MAX_UPLOAD_BYTES)}）`);
  cleanupStaleUploads();
  const originalName = cleanFileName(input.fileName);
  const sameFile = (row: UploadRow) =>
    row.purpose === input.purpose &&
    row.originalName === originalName &&
    row.fileSize === input.fileSize &&
    row.contentType === input.contentType;
  const hinted = input.uploadId ? findUpload(contestId, input.uploadId) : null;
  const existing =
    (hinted && sameFile(hinted) ? hinted : null) ??
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
      .get() ??
    null;
  if (existing) return { ok: true, upload: stateOf(reconcile(existing)) };

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
  fs.mkdirSync(uploadsDir(), { recursive: true });
  fs.closeSync(fs.openSync(partPath(row.id), "w"));
  return { ok: true, upload: stateOf(row) };
}

export function uploadStatus(
  contestId: number,
  uploadId: string,
): { ok: true; upload: UploadState } | UploadFailure {
  const row = findUpload(contestId, uploadId);
  if (!row) return fail(404, "アップロードが見つかりません。最初からやり直してください。");
  return { ok: true, upload: stateOf(reconcile(row)) };
}

/** Unfinished uploads of a contest for one tab, newest first (the tab offers to resume or discard them). */
export function listPendingUploads(contestId: number, purpose: UploadPurpose = "media"): UploadState[] {
  return db()
    .select()
    .from(mediaUploads)
    .where(and(eq(mediaUploads.contestId, contestId), eq(mediaUploads.purpose, purpose)))
    .orderBy(desc(mediaUploads.createdAt))
    .all()
    .map((row) => stateOf(reconcile(row)));
}

export function discardUpload(contestId: number, uploadId: string): boolean {
  const row = findUpload(contestId, uploadId);
  if (!row) return false;
  db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
  fs.rmSync(partPath(row.id), { force: true });
  return true;
}

// One chunk at a time per upload in this process: a retried request waits for the first.
const uploadLocks = new Map<string, Promise<unknown>>();
async function withUploadLock<T>(uploadId: string, work: () => Promise<T>): Promise<T> {
  const previous = uploadLocks.get(uploadId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(work);
  uploadLocks.set(uploadId, run);
  try {
    return await run;
  } finally {
    if (uploadLocks.get(uploadId) === run) uploadLocks.delete(uploadId);
  }
}

type ChunkTarget = { row: UploadRow; index: number; expected: number };

function chunkTarget(
  contestId: number,
  uploadId: string | null,
  indexText: string | null,
): ChunkTarget | UploadFailure {
  if (!uploadId || !/^[a-f0-9]{32}$/.test(uploadId)) return fail(400, "uploadId が正しくありません");
  if (!indexText || !/^\d{1,9}$/.test(indexText)) return fail(400, "chunkIndex が正しくありません");
  const found = findUpload(contestId, uploadId);
  if (!found) return fail(404, "アップロードが見つかりません。最初からやり直してください。");
  const row = reconcile(found);
  const index = Number(indexText);
  if (index >= row.totalChunks)
    return fail(400, `chunkIndex は ${row.totalChunks - 1} 以下で指定してください`);
  // Chunks arrive in order; one past what is stored would leave a hole in the file.
  if (index > row.receivedChunks) return fail(409, `チャンク ${row.receivedChunks} から順に送ってください`);
  return { row, index, expected: chunkLength(row, index) };
}

/**
 * POST …/media/chunked-upload: multipart {uploadId, chunkIndex, chunk}. The chunk is
 * streamed straight into the upload's part file at chunkIndex × chunkSize. A chunk sent
 * before its fields (the spec does not fix the order) goes through a temporary file.
 */
export async function receiveChunk(
  contestId: number,
  request: Request,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const chunkBytes = env().UPLOAD_CHUNK_BYTES;
  if (declaredOver(request, chunkBytes + MULTIPART_SLACK_BYTES))
    return fail(413, `チャンクが大きすぎます（${chunkBytes} バイトまで）`);
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return fail(400, "multipart/form-data で送信してください");
  const fields: { uploadId: string | null; chunkIndex: string | null } = { uploadId: null, chunkIndex: null };
  // Filled in by the part callback; an object, so TypeScript does not narrow it to its initial null.
  const got: {
    direct: { target: ChunkTarget; handle: fsp.FileHandle; sink: ReturnType<typeof fileSink> } | null;
    spooled: { file: string; handle: fsp.FileHandle; sink: ReturnType<typeof fileSink> } | null;
    refused: UploadFailure | null;
    /** Frees this upload's lock; set as soon as it is held, so every way out releases it. */
    release: (() => void) | null;
  } = { direct: null, spooled: null, refused: null, release: null };
  let chunkParts = 0;

  try {
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name === "uploadId") return textField(64, (value) => (fields.uploadId = value.trim()));
      if (part.name === "chunkIndex") return textField(16, (value) => (fields.chunkIndex = value.trim()));
      if (part.name !== "chunk" || ++chunkParts > 1) return null;
      if (fields.uploadId !== null && fields.chunkIndex !== null) {
        const target = chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
        if ("ok" in target) {
          got.refused = target;
          return null;
        }
        // The lock is held from here until this request has answered (closeAll releases it).
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const acquired = new Promise<void>((resolve) => {
          void withUploadLock(target.row.id, () => {
            resolve();
            return held;
          });
        });
        await acquired;
        got.release = release;
        // Re-read under the lock: the request before this one may have stored the chunk.
        const again = chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
        if ("ok" in again) {
          got.refused = again;
          return null;
        }
        const handle = await openPart(again.row.id);
        got.direct = {
          target: again,
          handle,
          sink: fileSink(handle, again.index * again.row.chunkSize, again.expected),
        };
        return got.direct.sink;
      }
      fs.mkdirSync(uploadsDir(), { recursive: true });
      const file = path.join(uploadsDir(), `spool-${crypto.randomBytes(12).toString("hex")}.chunk`);
      const handle = await fsp.open(file, "w");
      got.spooled = { file, handle, sink: fileSink(handle, 0, env().UPLOAD_CHUNK_BYTES) };
      return got.spooled.sink;
    });
  } catch (error) {
    await closeAll();
    if (error instanceof MultipartError) return fail(400, "送信内容を読み取れませんでした");
    throw error;
  }

  async function closeAll() {
    const { direct: d, spooled: s } = got;
    if (d) await d.handle.close().catch(() => undefined);
    got.release?.();
    got.release = null;
    if (s) {
      await s.handle.close().catch(() => undefined);
      fs.rmSync(s.file, { force: true });
    }
  }

  try {
    if (got.refused) return got.refused;
    const { direct: d, spooled: s } = got;
    if (d) {
      const wrongSize = d.sink.tooBig()
        ? fail(413, `チャンクが大きすぎます（${d.target.expected} バイトまで）`)
        : d.sink.received() !== d.target.expected
          ? fail(
              400,
              `チャンクのサイズが正しくありません（${d.target.expected} バイトのはずが ${d.sink.received()} バイト）`,
            )
          : null;
      if (wrongSize) {
        // Its bytes went into place already: a chunk that was stored before must now be sent again.
        if (d.target.index < d.target.row.receivedChunks) {
          db()
            .update(mediaUploads)
            .set({ receivedChunks: d.target.index })
            .where(eq(mediaUploads.id, d.target.row.id))
            .run();
        }
        return wrongSize;
      }
      await d.handle.datasync();
      return { ok: true, upload: markReceived(d.target) };
    }
    if (s) {
      const target = chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
      if ("ok" in target) return target;
      if (s.sink.tooBig() || s.sink.received() > target.expected)
        return fail(413, `チャンクが大きすぎます（${target.expected} バイトまで）`);
      if (s.sink.received() !== target.expected)
        return fail(
          400,
          `チャンクのサイズが正しくありません（${target.expected} バイトのはずが ${s.sink.received()} バイト）`,
        );
      return await withUploadLock(target.row.id, async () => {
        const fresh = chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
        if ("ok" in fresh) return fresh;
        const destination = await openPart(fresh.row.id);
        try {
          await copyInto(s.file, destination, fresh.index * fresh.row.chunkSize);
          await destination.datasync();
        } finally {
          await destination.close();
        }
        return { ok: true as const, upload: markReceived(fresh) };
      });
    }
    return fail(400, "chunk がありません");
  } finally {
    await closeAll();
  }
}

async function copyInto(source: string, destination: fsp.FileHandle, position: number) {
  const input = fs.createReadStream(source, { highWaterMark: WRITE_BUFFER_BYTES });
  let offset = position;
  for await (const piece of input as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < piece.length) {
      const { bytesWritten } = await destination.write(piece, from, piece.length - from, offset);
      from += bytesWritten;
      offset += bytesWritten;
    }
  }
}

function markReceived(target: ChunkTarget): UploadState {
  const receivedChunks = Math.max(target.row.receivedChunks, target.index + 1);
  db().update(mediaUploads).set({ receivedChunks }).where(eq(mediaUploads.id, target.row.id)).run();
  return stateOf({ ...target.row, receivedChunks });
}

export type StoredMedia = typeof mediaItems.$inferSelect;
type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/**
 * Turns a complete file in the uploads folder into a media item: checks what its bytes
 * are, moves it to a name the shop chooses and appends it to the contest's content.
 * The file is removed when it is refused.
 */
async function storeUploadedFile(
  contestId: number,
  file: string,
  meta: {
    originalName: string;
    expectedType: "video" | "image" | null;
    category: (typeof CONTENT_CATEGORIES)[number];
  },
): Promise<{ ok: true; item: StoredMedia } | UploadFailure> {
  const head = Buffer.alloc(SNIFF_BYTES);
  const handle = fs.openSync(file, "r");
  let size = 0;
  try {
    fs.readSync(handle, head, 0, head.length, 0);
    size = fs.fstatSync(handle).size;
  } finally {
    fs.closeSync(handle);
  }
  const kind = sniffMedia(head);
  if (!kind) {
    fs.rmSync(file, { force: true });
    return fail(
      415,
      "対応していないファイル形式です。動画（MP4・MOV・WebM）か画像（JPEG・PNG・WebP・GIF）を選択してください",
    );
  }
  if (meta.expectedType && kind.mediaType !== meta.expectedType) {
    fs.rmSync(file, { force: true });
    return fail(415, `ファイルの中身が${meta.expectedType === "video" ? "動画" : "画像"}ではありません`);
  }
  let width: number | null = null;
  let height: number | null = null;
  if (kind.mediaType === "image") {
    const sharp = await loadSharp();
    try {
      const metadata = await sharp(file).metadata();
      width = metadata.width ?? null;
      height = metadata.height ?? null;
    } catch {
      fs.rmSync(file, { force: true });
      return fail(415, "画像を読み取れませんでした。別の画像を選択してください");
    }
  }
  const storedName = newStoredName("media", kind.extension);
  fs.renameSync(file, path.join(mediaDir(), storedName));
  const item = db().transaction(
    (tx) => {
      const last = tx
        .select({ value: max(mediaItems.displayOrder) })
        .from(mediaItems)
        .where(and(eq(mediaItems.contestId, contestId), ne(mediaItems.category, "cover-image")))
        .get();
      return tx
        .insert(mediaItems)
        .values({
          contestId,
          storedName,
          originalName: meta.originalName,
          category: meta.category,
          mediaType: kind.mediaType,
          contentType: kind.contentType,
          size,
          width,
          height,
          displayOrder: (last?.value ?? -1) + 1,
          uploadedAt: now(),
        })
        .returning()
        .get();
    },
    { behavior: "immediate" },
  );
  return { ok: true, item };
}

/**
 * POST …/media/chunked-complete: every chunk stored, the size right, the bytes a video or
 * image. A delivery upload becomes a delivery file of the contest instead of a media item.
 */
export async function completeChunkedUpload(
  contestId: number,
  uploadId: string,
): Promise<{ ok: true; item: StoredMedia } | { ok: true; deliveryFile: DeliveryFile } | UploadFailure> {
  return withUploadLock(uploadId, async () => {
    const found = findUpload(contestId, uploadId);
    if (!found) return fail(404, "アップロードが見つかりません。最初からやり直してください。");
    const row = reconcile(found);
    if (row.receivedChunks < row.totalChunks)
      return fail(409, `まだすべてのチャンクを受信していません（${row.receivedChunks}/${row.totalChunks}）`);
    const file = partPath(row.id);
    const size = fs.statSync(file).size;
    if (size !== row.fileSize) {
      // A longer file can only be left-over bytes: trim them; a shorter one is not complete.
      if (size < row.fileSize)
        return fail(409, "ファイルのサイズが一致しません。アップロードをやり直してください。");
      fs.truncateSync(file, row.fileSize);
    }
    db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
    if (row.purpose === "delivery") {
      const stored = storeDeliveryFile(contestId, file, row.originalName);
      return stored.ok ? { ok: true, deliveryFile: stored.file } : stored;
    }
    return storeUploadedFile(contestId, file, {
      originalName: row.originalName,
      expectedType: row.mediaType,
      category: row.category === "others" ? "others" : "sample",
    });
  });
}

/**
 * The content tab's plain multipart form (JavaScript off): the `file` part is streamed to
 * disk with the same limit, the same magic-byte check and a name the shop chooses.
 */
export async function receiveFormUpload(
  contestId: number,
  request: Request,
): Promise<{ ok: true; item: StoredMedia } | UploadFailure> {
  const limit = env().MAX_UPLOAD_BYTES;
  if (declaredOver(request, limit + MULTIPART_SLACK_BYTES))
    return fail(413, `ファイルが大きすぎます（上限 ${formatBytes(limit)}）`);
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return fail(400, "ファイルを選択してください");
  fs.mkdirSync(uploadsDir(), { recursive: true });
  const got: {
    target: { file: string; handle: fsp.FileHandle; sink: ReturnType<typeof fileSink>; name: string } | null;
    category: string;
  } = {
    target: null,
    category: "sample",
  };
  try {
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name === "category") return textField(32, (value) => (got.category = value.trim()));
      if (part.name !== "file" || got.target || !part.filename) return null;
      const file = path.join(uploadsDir(), `form-${crypto.randomBytes(12).toString("hex")}.upload`);
      const handle = await fsp.open(file, "w");
      got.target = { file, handle, sink: fileSink(handle, 0, limit), name: part.filename };
      return got.target.sink;
    });
  } catch (error) {
    const t = got.target;
    if (t) {
      await t.handle.close().catch(() => undefined);
      fs.rmSync(t.file, { force: true });
    }
    if (error instanceof MultipartError)
      return fail(400, "送信内容を読み取れませんでした。もう一度お試しください。");
    throw error;
  }
  const t = got.target;
  if (!t) return fail(400, "ファイルを選択してください");
  await t.handle.close();
  if (t.sink.tooBig()) {
    fs.rmSync(t.file, { force: true });
    return fail(413, `ファイルが大きすぎます（上限 ${formatBytes(limit)}）`);
  }
  if (t.sink.received() === 0) {
    fs.rmSync(t.file, { force: true });
    return fail(400, "ファイルを選択してください");
  }
  cleanupStaleUploads();
  return storeUploadedFile(contestId, t.file, {
    originalName: cleanFileName(t.name),
    expectedType: null,
    category: got.category === "others" ? "others" : "sample",
  });
}
