import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, max, ne } from "drizzle-orm";
import type { ChunkedInit } from "~/lib/schemas/media-schemas";
import { CONTENT_CATEGORIES, formatBytes } from "~/lib/schemas/media-schemas";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { mediaItems, mediaUploadParts, mediaUploads, UPLOAD_PURPOSES } from "../db/schema";
import {
  DELIVERY_FILE_MESSAGES,
  recordDeliveryFile,
  type DeliveryFile,
} from "../delivery/delivery-files.server";
import { env } from "../core/env.server";
import { cleanFileName, newStoredName } from "../files/storage.server";
import { chunkLength, fileStore, type ChunkedUpload, type ChunkSink } from "../files/store.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import {
  fileSink,
  MultipartError,
  multipartBoundary,
  readMultipart,
  textField,
  WRITE_BUFFER_BYTES,
} from "../files/multipart.server";
import { readHead, SNIFF_BYTES, sniffMedia, type SniffedMedia } from "../files/sniff.server";
import { loadSharp } from "../core/lazy-modules.server";

/** An upload nobody has added to for this long is abandoned: its row and stored parts go. */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** Scratch files and store uploads no row owns (left by a crash) go after this. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

export type UploadFailure = { ok: false; status: 400 | 404 | 409 | 413 | 415 | 503; message: string };
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

const STORE_UNAVAILABLE = "保存先に接続できませんでした。しばらくしてからもう一度お試しください。";
const SIZE_MISMATCH = "ファイルのサイズが一致しません。アップロードをやり直してください。";

/** The scratch folder on this server (spooled chunks, form uploads; local part files too). */
export async function uploadsDir(): Promise<string> {
  return (await fileStore()).scratchDir();
}

function totalChunksFor(fileSize: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(fileSize / chunkSize));
}

/** The upload as the store knows it, once its first chunk has named it. */
function storeUploadOf(row: UploadRow): ChunkedUpload | null {
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

const bareEtag = (etag: string | null | undefined) => (etag ?? "").replace(/"/g, "");

/**
 * receivedChunks as the store can back it: after a crash the store is the truth (S3's ListParts,
 * the part file's length). A chunk counts while its part is there with its size and, when the
 * store gave one, the ETag recorded when it was taken; the count never rises here (a part stored
 * just before a crash is sent again). An upload the store no longer has starts over.
 */
async function reconcile(row: UploadRow): Promise<UploadRow> {
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
  const recorded = new Map(
    db()
      .select()
      .from(mediaUploadParts)
      .where(eq(mediaUploadParts.uploadId, row.id))
      .all()
      .map((part) => [part.partNumber, part.etag]),
  );
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
  return Math.max(row.createdAt.getTime(), row.lastChunkAt?.getTime() ?? 0);
}

/** Drops an upload: its row (and recorded parts) and whatever the store holds of it. */
async function dropUpload(row: UploadRow): Promise<void> {
  db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
  const upload = storeUploadOf(row);
  if (upload) await (await fileStore()).chunks.abort(upload);
}

/**
 * Removes uploads nobody has added to for 24 hours (S3: aborts their multipart uploads), store
 * uploads no row owns (`sweepLeftovers`: it lists the store) and scratch files older than an hour
 * (left by a crash). Run by the hourly clean-up (app/server/startup.server.ts).
 */
export async function cleanupStaleUploads({ sweepLeftovers = true } = {}): Promise<number> {
  const store = await fileStore();
  const at = now().getTime();
  let removed = 0;
  for (const row of db().select().from(mediaUploads).all()) {
    if (lastActivity(row) >= at - STALE_UPLOAD_MS) continue;
    await dropUpload(row);
    removed++;
  }
  const live = new Set(
    db()
      .select({ storeUploadId: mediaUploads.storeUploadId })
      .from(mediaUploads)
      .all()
      .map((row) => row.storeUploadId),
  );
  for await (const upload of sweepLeftovers ? store.chunks.list() : []) {
    if (live.has(upload.storeUploadId) || upload.startedAt.getTime() >= at - ORPHAN_AGE_MS) continue;
    await store.chunks.abort(upload);
    removed++;
  }
  let names: string[];
  try {
    names = await fsp.readdir(store.scratchDir());
  } catch {
    return removed;
  }
  for (const name of names) {
    // Local part files are the store's own, handled above.
    if (name.endsWith(".part")) continue;
    const file = path.join(store.scratchDir(), name);
    try {
      if ((await fsp.stat(file)).mtimeMs < at - ORPHAN_AGE_MS) {
        await fsp.rm(file, { force: true });
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
export async function initChunkedUpload(
  contestId: number,
  input: ChunkedInit,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } = env();
  if (input.fileSize > MAX_UPLOAD_BYTES)
    return fail(413, `ファイルが大きすぎます（上限 ${formatBytes(MAX_UPLOAD_BYTES)}）`);
  const originalName = cleanFileName(input.fileName);
  const fresh = (row: UploadRow) => lastActivity(row) >= now().getTime() - STALE_UPLOAD_MS;
  const sameFile = (row: UploadRow) =>
    row.purpose === input.purpose &&
    row.originalName === originalName &&
    row.fileSize === input.fileSize &&
    row.contentType === input.contentType &&
    fresh(row);
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
      .all()
      .find(fresh) ??
    null;
  if (existing) {
    try {
      return { ok: true, upload: stateOf(await reconcile(existing)) };
    } catch (error) {
      console.error("[uploads] the store did not answer", error);
      return fail(503, STORE_UNAVAILABLE);
    }
  }

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

export async function uploadStatus(
  contestId: number,
  uploadId: string,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const row = findUpload(contestId, uploadId);
  if (!row) return fail(404, "アップロードが見つかりません。最初からやり直してください。");
  try {
    return { ok: true, upload: stateOf(await reconcile(row)) };
  } catch (error) {
    console.error("[uploads] the store did not answer", error);
    return fail(503, STORE_UNAVAILABLE);
  }
}

/**
 * Unfinished uploads of a contest for one tab, newest first (the tab offers to resume or discard
 * them); an abandoned one is no longer offered, and the hourly clean-up removes it.
 */
export async function listPendingUploads(
  contestId: number,
  purpose: UploadPurpose = "media",
): Promise<UploadState[]> {
  const rows = db()
    .select()
    .from(mediaUploads)
    .where(and(eq(mediaUploads.contestId, contestId), eq(mediaUploads.purpose, purpose)))
    .orderBy(desc(mediaUploads.createdAt))
    .all()
    .filter((row) => lastActivity(row) >= now().getTime() - STALE_UPLOAD_MS);
  const states: UploadState[] = [];
  for (const row of rows) states.push(stateOf(await reconcile(row).catch(() => row)));
  return states;
}

export async function discardUpload(contestId: number, uploadId: string): Promise<boolean> {
  const row = findUpload(contestId, uploadId);
  if (!row) return false;
  await withUploadLock(row.id, () => dropUpload(row));
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

async function chunkTarget(
  contestId: number,
  uploadId: string | null,
  indexText: string | null,
): Promise<ChunkTarget | UploadFailure> {
  if (!uploadId || !/^[a-f0-9]{32}$/.test(uploadId)) return fail(400, "uploadId が正しくありません");
  if (!indexText || !/^\d{1,9}$/.test(indexText)) return fail(400, "chunkIndex が正しくありません");
  const found = findUpload(contestId, uploadId);
  if (!found) return fail(404, "アップロードが見つかりません。最初からやり直してください。");
  const row = await reconcile(found);
  const index = Number(indexText);
  if (index >= row.totalChunks)
    return fail(400, `chunkIndex は ${row.totalChunks - 1} 以下で指定してください`);
  // Chunks arrive in order; one past what is stored would leave a hole in the file.
  if (index > row.receivedChunks) return fail(409, `チャンク ${row.receivedChunks} から順に送ってください`);
  return { row, index, expected: chunkLength(row, index) };
}

/**
 * Where a chunk's bytes go. The first chunk of an upload the store has not begun names the file:
 * its first bytes say what it is (the extension of the stored name), and the store's upload is
 * made under that final name, so completing it moves nothing (S3 cannot rename an object).
 */
async function chunkSinkFor(target: ChunkTarget): Promise<ChunkSink> {
  const store = await fileStore();
  const begun = storeUploadOf(target.row);
  if (begun) return store.chunks.sink(begun, target.index, target.expected);
  const { row } = target;
  return peekingSink(Math.min(SNIFF_BYTES, target.expected), async (head) => {
    const kind = sniffMedia(head);
    const storedName = newStoredName(
      row.purpose === "delivery" ? "delivery" : "media",
      kind?.extension ?? "upload",
    );
    const storeUploadId = await store.chunks.begin(row.id, storedName, kind?.contentType ?? "");
    db().update(mediaUploads).set({ storedName, storeUploadId }).where(eq(mediaUploads.id, row.id)).run();
    const upload = storeUploadOf({ ...row, storedName, storeUploadId });
    if (!upload) throw new Error("upload not begun");
    return store.chunks.sink(upload, target.index, target.expected);
  });
}

/** A sink that holds the first `length` bytes until `open` has made the real one from them. */
function peekingSink(length: number, open: (head: Buffer) => Promise<ChunkSink>): ChunkSink {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let inner: ChunkSink | null = null;
  const openWithHeld = async () => {
    const head = Buffer.concat(held);
    held = [];
    inner = await open(head);
    if (head.length > 0) await inner.write(head);
    return inner;
  };
  return {
    async write(bytes) {
      if (inner) return inner.write(bytes);
      held.push(Buffer.from(bytes));
      heldBytes += bytes.length;
      if (heldBytes >= length) await openWithHeld();
    },
    async end() {
      await inner?.end();
    },
    received: () => inner?.received() ?? heldBytes,
    tooBig: () => inner?.tooBig() ?? false,
    async finish() {
      const sink = inner ?? (await openWithHeld());
      await sink.end();
      return sink.finish();
    },
    async abort() {
      await inner?.abort();
    },
  };
}

/**
 * POST …/media/chunked-upload: multipart {uploadId, chunkIndex, chunk}. The chunk is
 * streamed straight into the store: the upload's part file at chunkIndex × chunkSize, or
 * S3's part chunkIndex + 1. A chunk sent before its fields (the spec does not fix the order)
 * goes through a temporary file.
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
  const scratch = await uploadsDir();
  const fields: { uploadId: string | null; chunkIndex: string | null } = { uploadId: null, chunkIndex: null };
  // Filled in by the part callback; an object, so TypeScript does not narrow it to its initial null.
  const got: {
    direct: { target: ChunkTarget; sink: ChunkSink } | null;
    spooled: { file: string; handle: fsp.FileHandle; sink: ReturnType<typeof fileSink> } | null;
    refused: UploadFailure | null;
    /** Frees this upload's lock; set as soon as it is held, so every way out releases it. */
    release: (() => void) | null;
  } = { direct: null, spooled: null, refused: null, release: null };
  let chunkParts = 0;

  async function closeAll() {
    got.release?.();
    got.release = null;
    const s = got.spooled;
    if (s) {
      await s.handle.close().catch(() => undefined);
      fs.rmSync(s.file, { force: true });
    }
  }

  try {
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name === "uploadId") return textField(64, (value) => (fields.uploadId = value.trim()));
      if (part.name === "chunkIndex") return textField(16, (value) => (fields.chunkIndex = value.trim()));
      if (part.name !== "chunk" || ++chunkParts > 1) return null;
      if (fields.uploadId !== null && fields.chunkIndex !== null) {
        const target = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
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
        const again = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
        if ("ok" in again) {
          got.refused = again;
          return null;
        }
        got.direct = { target: again, sink: await chunkSinkFor(again) };
        return got.direct.sink;
      }
      await fsp.mkdir(scratch, { recursive: true });
      const file = path.join(scratch, `spool-${crypto.randomBytes(12).toString("hex")}.chunk`);
      const handle = await fsp.open(file, "w");
      got.spooled = { file, handle, sink: fileSink(handle, 0, chunkBytes) };
      return got.spooled.sink;
    });
  } catch (error) {
    await got.direct?.sink.abort();
    await closeAll();
    if (error instanceof MultipartError) return fail(400, "送信内容を読み取れませんでした");
    console.error("[uploads] a chunk could not be stored", error);
    return fail(503, STORE_UNAVAILABLE);
  }

  try {
    if (got.refused) return got.refused;
    const { direct: d, spooled: s } = got;
    if (d) return await settleChunk(d.target, d.sink);
    if (s) {
      await s.handle.close();
      const target = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
      if ("ok" in target) return target;
      if (s.sink.tooBig() || s.sink.received() > target.expected)
        return fail(413, `チャンクが大きすぎます（${target.expected} バイトまで）`);
      if (s.sink.received() !== target.expected)
        return fail(
          400,
          `チャンクのサイズが正しくありません（${target.expected} バイトのはずが ${s.sink.received()} バイト）`,
        );
      return await withUploadLock(target.row.id, async () => {
        const fresh = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
        if ("ok" in fresh) return fresh;
        const sink = await chunkSinkFor(fresh);
        try {
          for await (const piece of fs.createReadStream(s.file, {
            highWaterMark: WRITE_BUFFER_BYTES,
          }) as AsyncIterable<Buffer>)
            await sink.write(piece);
          await sink.end();
        } catch (error) {
          await sink.abort();
          throw error;
        }
        return settleChunk(fresh, sink);
      });
    }
    return fail(400, "chunk がありません");
  } catch (error) {
    console.error("[uploads] a chunk could not be stored", error);
    return fail(503, STORE_UNAVAILABLE);
  } finally {
    await closeAll();
  }
}

/** A chunk whose bytes have all arrived: counted when its size is right, refused (and forgotten) otherwise. */
async function settleChunk(
  target: ChunkTarget,
  sink: ChunkSink,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const wrongSize = sink.tooBig()
    ? fail(413, `チャンクが大きすぎます（${target.expected} バイトまで）`)
    : sink.received() !== target.expected
      ? fail(
          400,
          `チャンクのサイズが正しくありません（${target.expected} バイトのはずが ${sink.received()} バイト）`,
        )
      : null;
  if (wrongSize) {
    await sink.abort();
    // In the part file its bytes went into place already: a chunk stored before must now be sent again.
    if (target.index < target.row.receivedChunks) {
      db()
        .update(mediaUploads)
        .set({ receivedChunks: target.index })
        .where(eq(mediaUploads.id, target.row.id))
        .run();
    }
    return wrongSize;
  }
  const etag = await sink.finish();
  return { ok: true, upload: markReceived(target, etag) };
}

function markReceived(target: ChunkTarget, etag: string | null): UploadState {
  const receivedChunks = Math.max(target.row.receivedChunks, target.index + 1);
  db().transaction(
    (tx) => {
      tx.insert(mediaUploadParts)
        .values({ uploadId: target.row.id, partNumber: target.index + 1, etag })
        .onConflictDoUpdate({
          target: [mediaUploadParts.uploadId, mediaUploadParts.partNumber],
          set: { etag },
        })
        .run();
      tx.update(mediaUploads)
        .set({ receivedChunks, lastChunkAt: now() })
        .where(eq(mediaUploads.id, target.row.id))
        .run();
    },
    { behavior: "immediate" },
  );
  // A freshly begun upload's row gained its stored name in this request.
  return stateOf({ ...target.row, receivedChunks });
}

export type StoredMedia = typeof mediaItems.$inferSelect;
type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

type MediaMeta = {
  originalName: string;
  expectedType: "video" | "image" | null;
  category: (typeof CONTENT_CATEGORIES)[number];
};

const NOT_MEDIA =
  "対応していないファイル形式です。動画（MP4・MOV・WebM）か画像（JPEG・PNG・WebP・GIF）を選択してください";
const UNREADABLE_IMAGE = "画像を読み取れませんでした。別の画像を選択してください";

/** What a file's first bytes say it is, checked against what the upload said it would be. */
function checkMedia(head: Buffer, expectedType: MediaMeta["expectedType"]): SniffedMedia | UploadFailure {
  const kind = sniffMedia(head);
  if (!kind) return fail(415, NOT_MEDIA);
  if (expectedType && kind.mediaType !== expectedType)
    return fail(415, `ファイルの中身が${expectedType === "video" ? "動画" : "画像"}ではありません`);
  return kind;
}

/** An image's size, read by decoding it; null when it has no picture behind its magic bytes. */
async function imageSize(file: string): Promise<{ width: number | null; height: number | null } | null> {
  const sharp = await loadSharp();
  try {
    const metadata = await sharp(file).metadata();
    return { width: metadata.width ?? null, height: metadata.height ?? null };
  } catch {
    return null;
  }
}

/** Appends a stored file to the contest's content, after the last item. */
function insertMediaItem(
  contestId: number,
  stored: {
    storedName: string;
    kind: SniffedMedia;
    size: number;
    width: number | null;
    height: number | null;
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
      return tx
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
          displayOrder: (last?.value ?? -1) + 1,
          uploadedAt: now(),
        })
        .returning()
        .get();
    },
    { behavior: "immediate" },
  );
}

/**
 * Turns a complete file in the scratch folder (the plain form's) into a media item: checks
 * what its bytes are, stores it under a name the shop chooses and appends it to the contest's
 * content. The file is removed when it is refused.
 */
async function storeUploadedFile(
  contestId: number,
  file: string,
  meta: MediaMeta,
): Promise<{ ok: true; item: StoredMedia } | UploadFailure> {
  const kind = checkMedia(readHead(file), meta.expectedType);
  const size = (await fsp.stat(file)).size;
  const dimensions =
    "ok" in kind ? null : kind.mediaType === "image" ? await imageSize(file) : { width: null, height: null };
  if ("ok" in kind || !dimensions) {
    await fsp.rm(file, { force: true });
    return "ok" in kind ? kind : fail(415, UNREADABLE_IMAGE);
  }
  const storedName = newStoredName("media", kind.extension);
  await (await fileStore()).putFile(storedName, file, kind.contentType);
  return { ok: true, item: insertMediaItem(contestId, { storedName, kind, size, ...dimensions }, meta) };
}

/**
 * A completed chunked upload, already stored under the name its first chunk gave it: its whole
 * first bytes are checked again (a name from a chunk 0 sent again with other bytes must not
 * stand), and it becomes a media item, or a delivery file. A refused file is deleted.
 */
async function adoptStoredUpload(
  contestId: number,
  row: UploadRow,
  storedName: string,
): Promise<{ ok: true; item: StoredMedia } | { ok: true; deliveryFile: DeliveryFile } | UploadFailure> {
  const store = await fileStore();
  const head = await store.readHead(storedName, SNIFF_BYTES);
  const named = (kind: SniffedMedia) => storedName.endsWith(`.${kind.extension}`);
  if (row.purpose === "delivery") {
    const kind = sniffMedia(head);
    if (!kind || kind.mediaType !== "video" || !named(kind)) {
      await store.remove(storedName);
      return fail(415, DELIVERY_FILE_MESSAGES.notVideo);
    }
    return {
      ok: true,
      deliveryFile: recordDeliveryFile(
        contestId,
        { storedName, contentType: kind.contentType, size: row.fileSize },
        row.originalName,
      ),
    };
  }
  const meta: MediaMeta = {
    originalName: row.originalName,
    expectedType: row.mediaType,
    category: row.category === "others" ? "others" : "sample",
  };
  const kind = checkMedia(head, meta.expectedType);
  if ("ok" in kind || !named(kind)) {
    await store.remove(storedName);
    return "ok" in kind ? kind : fail(415, NOT_MEDIA);
  }
  // Images pass through this server once, to be measured (object storage: a scratch copy).
  const dimensions =
    kind.mediaType === "image"
      ? await store.withLocalCopy(storedName, imageSize)
      : { width: null, height: null };
  if (!dimensions) {
    await store.remove(storedName);
    return fail(415, UNREADABLE_IMAGE);
  }
  return {
    ok: true,
    item: insertMediaItem(contestId, { storedName, kind, size: row.fileSize, ...dimensions }, meta),
  };
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
    try {
      const row = await reconcile(found);
      const upload = storeUploadOf(row);
      if (row.receivedChunks < row.totalChunks || !upload)
        return fail(
          409,
          `まだすべてのチャンクを受信していません（${row.receivedChunks}/${row.totalChunks}）`,
        );
      const recorded = new Map(
        db()
          .select()
          .from(mediaUploadParts)
          .where(eq(mediaUploadParts.uploadId, row.id))
          .all()
          .map((part) => [part.partNumber, part.etag]),
      );
      const etags = Array.from({ length: row.totalChunks }, (_, index) => recorded.get(index + 1) ?? null);
      const store = await fileStore();
      if (!(await store.chunks.complete(upload, etags))) {
        // The store does not hold what the shop counted: the file is sent again from the start.
        await dropUpload(row);
        return fail(409, SIZE_MISMATCH);
      }
      db().delete(mediaUploads).where(eq(mediaUploads.id, row.id)).run();
      if ((await store.stat(upload.storedName))?.size !== row.fileSize) {
        await store.remove(upload.storedName);
        return fail(409, SIZE_MISMATCH);
      }
      return await adoptStoredUpload(contestId, row, upload.storedName);
    } catch (error) {
      console.error("[uploads] completing an upload failed", error);
      return fail(503, STORE_UNAVAILABLE);
    }
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
  const scratch = await uploadsDir();
  fs.mkdirSync(scratch, { recursive: true });
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
      const file = path.join(scratch, `form-${crypto.randomBytes(12).toString("hex")}.upload`);
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
  return storeUploadedFile(contestId, t.file, {
    originalName: cleanFileName(t.name),
    expectedType: null,
    category: got.category === "others" ? "others" : "sample",
  });
}
