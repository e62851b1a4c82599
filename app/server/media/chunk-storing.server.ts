import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { mediaUploadParts, mediaUploads } from "../db/schema";
import { SNIFF_BYTES, sniffMedia } from "../core/sniff.server";
import { newStoredName } from "../files/storage.server";
import { chunkLength, fileStore, type ChunkSink } from "../files/store.server";
import {
  findUpload,
  reconcile,
  stateOf,
  storeUploadOf,
  UPLOAD_ERRORS,
  uploadFailure,
  type UploadFailure,
  type UploadRow,
  type UploadState,
} from "./upload-rows.server";

/** The chunk a request sends: its upload (reconciled with the store), its index and exact size. */
export type ChunkTarget = { row: UploadRow; index: number; expected: number };

/** Checks the request's uploadId and chunkIndex against the upload as the store backs it. */
export async function chunkTarget(
  contestId: number,
  uploadId: string | null,
  indexText: string | null,
): Promise<ChunkTarget | UploadFailure> {
  if (!uploadId || !/^[a-f0-9]{32}$/.test(uploadId)) return uploadFailure(400, "uploadId が正しくありません");
  if (!indexText || !/^\d{1,9}$/.test(indexText)) return uploadFailure(400, "chunkIndex が正しくありません");
  const found = findUpload(contestId, uploadId);
  if (!found) return uploadFailure(404, UPLOAD_ERRORS.notFound);
  const row = await reconcile(found);
  const index = Number(indexText);
  if (index >= row.totalChunks)
    return uploadFailure(400, `chunkIndex は ${row.totalChunks - 1} 以下で指定してください`);
  // Chunks arrive in order; one past what is stored would leave a hole in the file.
  if (index > row.receivedChunks)
    return uploadFailure(409, `チャンク ${row.receivedChunks} から順に送ってください`);
  return { row, index, expected: chunkLength(row, index) };
}

/** A chunk whose bytes have all arrived is refused unless it has exactly its size. */
export function wrongChunkSize(
  sink: { received(): number; tooBig(): boolean },
  expected: number,
): UploadFailure | null {
  if (sink.tooBig() || sink.received() > expected)
    return uploadFailure(413, `チャンクが大きすぎます（${expected} バイトまで）`);
  if (sink.received() !== expected)
    return uploadFailure(
      400,
      `チャンクのサイズが正しくありません（${expected} バイトのはずが ${sink.received()} バイト）`,
    );
  return null;
}

/**
 * Where a chunk's bytes go. The first chunk of an upload the store has not begun names the file:
 * its first bytes say what it is (the extension of the stored name), and the store's upload is
 * made under that final name, so completing it moves nothing (S3 cannot rename an object).
 */
export async function chunkSinkFor(target: ChunkTarget): Promise<ChunkSink> {
  const store = await fileStore();
  const begun = storeUploadOf(target.row);
  if (begun) return store.chunks.sink(begun, target.index, target.expected);
  const { row } = target;
  return peekingSink(Math.min(SNIFF_BYTES, target.expected), async (head) => {
    const kind = sniffMedia(head);
    const delivery = row.purpose === "delivery";
    const storedName = newStoredName(delivery ? "delivery" : "media", kind?.extension ?? "upload");
    const storeUploadId = await store.chunks.begin(
      row.id,
      storedName,
      kind?.contentType ?? "",
      delivery ? "private" : "public",
    );
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

/** A chunk whose bytes have all arrived: counted when its size is right, refused (and forgotten) otherwise. */
export async function settleChunk(
  target: ChunkTarget,
  sink: ChunkSink,
): Promise<{ ok: true; upload: UploadState } | UploadFailure> {
  const wrongSize = wrongChunkSize(sink, target.expected);
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
