import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileResponse } from "./file-response.server";
import { LocalChunks } from "./local-chunks.server";
import type { Audience, FileStore, ListedObject, ServeOptions, StoredObject } from "./store.server";
import { isStoredName } from "./store.server";
import { writeWithinReserve } from "./upload-room.server";

/**
 * Stored files in one folder (MEDIA_DIR), the default: what one server with one volume needs.
 * A chunked upload is a part file in MEDIA_DIR/uploads, written at each chunk's offset, and
 * renamed into place when it is complete (same disk, so the rename is atomic).
 */
export class LocalStore implements FileStore {
  readonly kind = "local" as const;
  readonly chunks: LocalChunks;
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

  /**
   * The folder has no headers: a file's type comes from its name when it is served, and who may
   * see it from the route that serves it (the Cache-Control it answers with), so the audience is
   * not kept.
   */
  async putFile(name: string, file: string, _contentType: string, _audience: Audience): Promise<void> {
    await this.moveIntoPlace(name, file);
  }

  /** Moves a file of this server's disk to the stored name `name`. */
  async moveIntoPlace(name: string, file: string): Promise<void> {
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

  /** Bytes made of an upload (a thumbnail, a cover's variants): kept within the disk's reserve as the upload was. */
  async putBytes(name: string, bytes: Buffer, _contentType: string, _audience: Audience): Promise<void> {
    const target = this.pathOf(name);
    await fsp.mkdir(this.dir, { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${target}.${crypto.randomBytes(4).toString("hex")}.part`;
    try {
      await writeWithinReserve(this.dir, bytes.length, () => fsp.writeFile(partial, bytes));
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    }
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
