import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { NoRoomForUpload } from "../core/out-of-space.server";
import type { LocalStore } from "./local-store.server";
import { fileSink } from "./multipart.server";
import type { ChunkedUpload, ChunkedUploads, ChunkSink, StoredPart } from "./store.server";
import { chunkLength } from "./store.server";

/**
 * Chunked uploads on this server's disk: one part file per upload in the scratch folder, each
 * chunk written at its offset, renamed into place (putFile) when the upload is complete.
 */
export class LocalChunks implements ChunkedUploads {
  constructor(private readonly store: LocalStore) {}

  /** Upload ids are 32 hex characters the shop made, so a part path cannot leave the uploads folder. */
  private partPath(storeUploadId: string): string {
    if (!/^[a-f0-9]{32}$/.test(storeUploadId)) throw new Error("invalid upload id");
    return path.join(this.store.scratchDir(), `${storeUploadId}.part`);
  }

  async begin(uploadId: string): Promise<string> {
    await fsp.mkdir(this.store.scratchDir(), { recursive: true });
    await (await fsp.open(this.partPath(uploadId), "w")).close();
    return uploadId;
  }

  async sink(upload: ChunkedUpload, index: number, length: number): Promise<ChunkSink> {
    await fsp.mkdir(this.store.scratchDir(), { recursive: true });
    // Created again if something removed it: its chunks are then counted from what it holds.
    const handle = await fsp.open(
      this.partPath(upload.storeUploadId),
      fs.constants.O_RDWR | fs.constants.O_CREAT,
    );
    const offset = index * upload.chunkSize;
    const sizeBefore = (await handle.stat()).size;
    const sink = fileSink(handle, offset, length, this.store.scratchDir());
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await handle.close().catch(() => undefined);
    };
    /**
     * A chunk stopped at the reserve gives back the room its bytes took: the part file is cut back
     * to its length before the chunk (a chunk sent again inside the file took no new room).
     */
    const giveBackRoom = async () => {
      const keep = Math.max(offset, sizeBefore);
      if ((await handle.stat()).size > keep) await handle.truncate(keep);
    };
    const refusedForRoom = async (write: () => Promise<void>) => {
      try {
        await write();
      } catch (error) {
        if (error instanceof NoRoomForUpload) await giveBackRoom().catch(() => undefined);
        throw error;
      }
    };
    return {
      write: (bytes) => refusedForRoom(() => sink.write(bytes)),
      end: () => refusedForRoom(() => sink.end()),
      received: () => sink.received(),
      tooBig: () => sink.tooBig(),
      async finish() {
        try {
          await handle.datasync();
        } finally {
          await close();
        }
        return null;
      },
      abort: close,
    };
  }

  async parts(upload: ChunkedUpload): Promise<StoredPart[] | null> {
    let size: number;
    try {
      size = (await fsp.stat(this.partPath(upload.storeUploadId))).size;
    } catch {
      return null;
    }
    const whole = size >= upload.fileSize ? upload.totalChunks : Math.floor(size / upload.chunkSize);
    return Array.from({ length: whole }, (_, index) => ({
      partNumber: index + 1,
      size: chunkLength(upload, index),
      etag: null,
    }));
  }

  async complete(upload: ChunkedUpload): Promise<boolean> {
    const part = this.partPath(upload.storeUploadId);
    let size: number;
    try {
      size = (await fsp.stat(part)).size;
    } catch {
      return false;
    }
    if (size < upload.fileSize) return false;
    // A longer file can only be left-over bytes of an earlier, longer try: trim them.
    if (size > upload.fileSize) await fsp.truncate(part, upload.fileSize);
    // The folder keeps no headers: neither the type nor the audience is the file's own here.
    await this.store.moveIntoPlace(upload.storedName, part);
    return true;
  }

  async abort(upload: Pick<ChunkedUpload, "storeUploadId">): Promise<void> {
    await fsp.rm(this.partPath(upload.storeUploadId), { force: true });
  }

  async *list(): AsyncIterable<{ storedName: string; storeUploadId: string; startedAt: Date }> {
    let names: string[];
    try {
      names = await fsp.readdir(this.store.scratchDir());
    } catch {
      return;
    }
    for (const name of names) {
      const id = /^([a-f0-9]{32})\.part$/.exec(name)?.[1];
      if (!id) continue;
      try {
        const stat = await fsp.stat(path.join(this.store.scratchDir(), name));
        yield { storedName: "", storeUploadId: id, startedAt: stat.mtime };
      } catch {
        // gone meanwhile
      }
    }
  }
}
