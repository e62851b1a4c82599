import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileResponse } from "./file-response.server";
import { fileSink } from "./multipart.server";
import type {
  ChunkedUpload,
  ChunkedUploads,
  ChunkSink,
  FileStore,
  ListedObject,
  ServeOptions,
  StoredObject,
  StoredPart,
} from "./store.server";
import { chunkLength, isStoredName } from "./store.server";

/**
 * Stored files in one folder (MEDIA_DIR), the default: what one server with one volume needs.
 * A chunked upload is a part file in MEDIA_DIR/uploads, written at each chunk's offset, and
 * renamed into place when it is complete (same disk, so the rename is atomic).
 */
export class LocalStore implements FileStore {
  readonly kind = "local" as const;
  readonly chunks: ChunkedUploads;
  private readonly dir: string;

  constructor(mediaDir: string) {
    this.dir = path.resolve(mediaDir);
    this.chunks = new LocalChunks(this);
  }

  scratchDir(): string {
    return path.join(this.dir, "uploads");
  }

  /** The file of a stored name; a name the shop could not have chosen never becomes a path. */
  pathOf(name: string): string {
    if (!isStoredName(name)) throw new Error(`invalid stored name: ${JSON.stringify(name)}`);
    return path.join(this.dir, name);
  }

  async putFile(name: string, file: string, _contentType: string): Promise<void> {
    const target = this.pathOf(name);
    await fsp.mkdir(this.dir, { recursive: true });
    try {
      await fsp.rename(file, target);
    } catch (error) {
      // A scratch file on another disk (a BENCH_DIR, a temp folder): copy, then let it go.
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await fsp.copyFile(file, `${target}.part`);
      await fsp.rename(`${target}.part`, target);
      await fsp.rm(file, { force: true });
    }
  }

  async putBytes(name: string, bytes: Buffer, _contentType: string): Promise<void> {
    const target = this.pathOf(name);
    await fsp.mkdir(this.dir, { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${target}.${crypto.randomBytes(4).toString("hex")}.part`;
    await fsp.writeFile(partial, bytes);
    await fsp.rename(partial, target);
  }

  async stat(name: string): Promise<StoredObject | null> {
    try {
      const stat = await fsp.stat(this.pathOf(name));
      return stat.isFile() ? { size: stat.size, modified: stat.mtime } : null;
    } catch {
      return null;
    }
  }

  async readHead(name: string, length: number): Promise<Buffer> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.pathOf(name), "r");
    } catch {
      return Buffer.alloc(0);
    }
    try {
      const head = Buffer.alloc(length);
      const { bytesRead } = await handle.read(head, 0, length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readStream(name: string): Promise<Readable> {
    const file = this.pathOf(name);
    await fsp.access(file);
    return fs.createReadStream(file);
  }

  async withLocalCopy<T>(name: string, work: (file: string) => Promise<T>): Promise<T> {
    return work(this.pathOf(name));
  }

  async remove(name: string): Promise<void> {
    if (!isStoredName(name)) return;
    await fsp.rm(this.pathOf(name), { force: true });
  }

  async *list(namePrefix: string): AsyncIterable<ListedObject> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (!name.startsWith(namePrefix) || !isStoredName(name)) continue;
      const stat = await this.stat(name);
      if (stat) yield { name, ...stat };
    }
  }

  listingIsCostly(): boolean {
    return false;
  }

  async respond(request: Request, name: string, options: ServeOptions): Promise<Response> {
    return fileResponse(request, this.pathOf(name), options);
  }
}

class LocalChunks implements ChunkedUploads {
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
    const sink = fileSink(handle, index * upload.chunkSize, length);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await handle.close().catch(() => undefined);
    };
    return {
      write: (bytes) => sink.write(bytes),
      end: () => sink.end(),
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
    await this.store.putFile(upload.storedName, part, "");
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
