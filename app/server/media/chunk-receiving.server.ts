import fs from "node:fs";
import { env } from "../core/env.server";
import { NoRoomForUpload } from "../core/out-of-space.server";
import {
  MultipartError,
  multipartBoundary,
  readMultipart,
  textField,
  WRITE_BUFFER_BYTES,
} from "../files/multipart.server";
import { openScratchFile, type ScratchFile } from "../files/scratch-file.server";
import { fileStore, type ChunkSink } from "../files/store.server";
import { refusalForBody } from "../files/upload-room.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import {
  chunkSinkFor,
  chunkTarget,
  settleChunk,
  wrongChunkSize,
  type ChunkTarget,
} from "./chunk-storing.server";
import {
  holdUploadLock,
  UPLOAD_ERRORS,
  uploadFailure,
  withUploadLock,
  type UploadFailure,
  type UploadState,
} from "./upload-rows.server";

type ChunkAnswer = { ok: true; upload: UploadState } | UploadFailure;
type ChunkFields = { uploadId: string | null; chunkIndex: string | null };

/**
 * POST …/media/chunked-upload: multipart {uploadId, chunkIndex, chunk}. The chunk is
 * streamed straight into the store: the upload's part file at chunkIndex × chunkSize, or
 * S3's part chunkIndex + 1. A chunk sent before its fields (the spec does not fix the order)
 * goes through a temporary file.
 */
export async function receiveChunk(contestId: number, request: Request): Promise<ChunkAnswer> {
  const chunkBytes = env().UPLOAD_CHUNK_BYTES;
  if (declaredOver(request, chunkBytes + MULTIPART_SLACK_BYTES))
    return uploadFailure(413, `チャンクが大きすぎます（${chunkBytes} バイトまで）`);
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return uploadFailure(400, "multipart/form-data で送信してください");
  // In the folder the chunk lands on this server's disk; a bucket's chunk goes by (spooled ones are watched as they stream).
  const store = await fileStore();
  const noRoom = store.kind === "local" ? await refusalForBody(store.scratchDir(), request) : null;
  if (noRoom) return uploadFailure(413, noRoom.message);
  const fields: ChunkFields = { uploadId: null, chunkIndex: null };
  // Filled in by the part callback; an object, so TypeScript does not narrow it to its initial null.
  const got: {
    direct: { target: ChunkTarget; sink: ChunkSink } | null;
    spooled: ScratchFile | null;
    refused: UploadFailure | null;
    /** Frees this upload's lock; set as soon as it is held, so every way out releases it. */
    release: (() => void) | null;
  } = { direct: null, spooled: null, refused: null, release: null };
  let chunkParts = 0;

  async function closeAll() {
    got.release?.();
    got.release = null;
    await got.spooled?.discard();
  }

  try {
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name === "uploadId") return textField(64, (value) => (fields.uploadId = value.trim()));
      if (part.name === "chunkIndex") return textField(16, (value) => (fields.chunkIndex = value.trim()));
      if (part.name !== "chunk" || ++chunkParts > 1) return null;
      if (fields.uploadId === null || fields.chunkIndex === null) {
        got.spooled = await openScratchFile("spool", "chunk", chunkBytes);
        return got.spooled.sink;
      }
      const target = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
      if ("ok" in target) {
        got.refused = target;
        return null;
      }
      // The lock is held from here until this request has answered (closeAll releases it).
      got.release = await holdUploadLock(target.row.id);
      // Re-read under the lock: the request before this one may have stored the chunk.
      const again = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
      if ("ok" in again) {
        got.refused = again;
        return null;
      }
      got.direct = { target: again, sink: await chunkSinkFor(again) };
      return got.direct.sink;
    });
  } catch (error) {
    await got.direct?.sink.abort();
    await closeAll();
    if (error instanceof MultipartError) return uploadFailure(400, "送信内容を読み取れませんでした");
    if (error instanceof NoRoomForUpload) return uploadFailure(413, error.message);
    console.error("[uploads] a chunk could not be stored", error);
    return uploadFailure(503, UPLOAD_ERRORS.storeUnavailable);
  }

  try {
    if (got.refused) return got.refused;
    if (got.direct) return await settleChunk(got.direct.target, got.direct.sink);
    if (got.spooled) return await storeSpooledChunk(contestId, fields, got.spooled);
    return uploadFailure(400, "chunk がありません");
  } catch (error) {
    if (error instanceof NoRoomForUpload) return uploadFailure(413, error.message);
    console.error("[uploads] a chunk could not be stored", error);
    return uploadFailure(503, UPLOAD_ERRORS.storeUnavailable);
  } finally {
    await closeAll();
  }
}

/** A chunk that came before its fields, now whole on disk: checked, then copied into the store under the lock. */
async function storeSpooledChunk(
  contestId: number,
  fields: ChunkFields,
  spooled: ScratchFile,
): Promise<ChunkAnswer> {
  await spooled.handle.close();
  const target = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
  if ("ok" in target) return target;
  const wrongSize = wrongChunkSize(spooled.sink, target.expected);
  if (wrongSize) return wrongSize;
  return await withUploadLock(target.row.id, async () => {
    const fresh = await chunkTarget(contestId, fields.uploadId, fields.chunkIndex);
    if ("ok" in fresh) return fresh;
    const sink = await chunkSinkFor(fresh);
    try {
      for await (const piece of fs.createReadStream(spooled.file, {
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
