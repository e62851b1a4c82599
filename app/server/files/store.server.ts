import type { Readable } from "node:stream";
import { env } from "../core/env.server";
import { remember } from "../core/remember.server";
import type { PartSink } from "./multipart.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * Where the shop's stored files live (media, covers and their variants, thumbnails, delivery
 * files): the MEDIA_DIR folder, or S3-compatible object storage when STORAGE_URL names a bucket
 * (decision 0019). Every module that reads or writes a stored file goes through this interface;
 * stored names are chosen by the shop (`newStoredName`) and are the objects' keys.
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /** A folder on this server for bodies on their way in (forms, spooled chunks); swept after an hour. */
  scratchDir(): string;
  /**
   * Stores a whole file of this server's disk under `name`; the file is consumed (moved or
   * deleted). `audience` is who may ever see it: delivered videos and what is made of them are
   * "private" (in a bucket they are stored so that no shared cache keeps them), the storefront's
   * media "public".
   */
  putFile(name: string, file: string, contentType: string, audience: Audience): Promise<void>;
  putBytes(name: string, bytes: Buffer, contentType: string, audience: Audience): Promise<void>;
  stat(name: string): Promise<StoredObject | null>;
  /** Up to `length` bytes from the start (what a file is, by its first bytes); empty when it is missing. */
  readHead(name: string, length: number): Promise<Buffer>;
  readStream(name: string): Promise<Readable>;
  /** Runs `work` with a path on this server holding the file (sharp reads images from a path). */
  withLocalCopy<T>(name: string, work: (file: string) => Promise<T>): Promise<T>;
  /** Deletes a stored file; a missing one is not an error. */
  remove(name: string): Promise<void>;
  /** Stored files whose names start with `namePrefix`, with their sizes. */
  list(namePrefix: string): AsyncIterable<ListedObject>;
  /**
   * Answers a request for a stored file: from the folder, the bytes with Range (206/416); from a
   * bucket, a redirect to a short-lived signed URL (or the CDN), so the bytes never pass through Node.
   */
  respond(request: Request, name: string, options: ServeOptions): Promise<Response>;
  readonly chunks: ChunkedUploads;
  /** Whether listing would load what serving does not (the AWS SDK), not loaded yet in this process. */
  listingIsCostly(): boolean;
}

export type StoredObject = { size: number; modified: Date };
export type ListedObject = StoredObject & { name: string };

/**
 * Who a stored file is for. Public files (the storefront's media) may be kept by shared caches and
 * served through S3_PUBLIC_BASE_URL; private ones (delivered videos, an unpublished contest's
 * cover) only ever by the browser that asked, through a signed URL.
 */
export type Audience = "public" | "private";

export type ServeOptions = {
  contentType: string;
  cacheControl: string;
  audience: Audience;
  /** A whole `Content-Disposition` value (attachmentDisposition) for a download. */
  disposition?: string;
  /** How long a signed URL stays valid (object storage); downloads ask for minutes. */
  urlLifetimeSeconds?: number;
};

/** A chunked upload as the store knows it: which file it becomes and how it is cut. */
export type ChunkedUpload = {
  uploadId: string;
  storedName: string;
  /** The store's own id of the upload (S3's UploadId; the local part file's id). */
  storeUploadId: string;
  chunkSize: number;
  fileSize: number;
  totalChunks: number;
};

/** A chunk's bytes on their way into the store; `finish` once the part has ended, or `abort`. */
export type ChunkSink = PartSink & {
  received(): number;
  tooBig(): boolean;
  /** Makes the chunk durable; answers its ETag (S3) or null (the local part file). */
  finish(): Promise<string | null>;
  abort(): Promise<void>;
};

export type StoredPart = { partNumber: number; size: number; etag: string | null };

/** One part per chunk (part number = chunk index + 1), written in order, resumable after a restart. */
export interface ChunkedUploads {
  /** Begins the upload of the file `storedName`, stored for `audience` as putFile's are. */
  begin(uploadId: string, storedName: string, contentType: string, audience: Audience): Promise<string>;
  /** Where chunk `index` goes; `length` is the chunk's exact size. */
  sink(upload: ChunkedUpload, index: number, length: number): Promise<ChunkSink>;
  /** The parts the store holds (S3's ListParts, the part file's length), or null when the upload is gone. */
  parts(upload: ChunkedUpload): Promise<StoredPart[] | null>;
  /** Joins the parts into the stored file `upload.storedName`; false when the store refuses them. */
  complete(upload: ChunkedUpload, etags: (string | null)[]): Promise<boolean>;
  abort(upload: Pick<ChunkedUpload, "storedName" | "storeUploadId">): Promise<void>;
  /** Every unfinished upload the store holds (to sweep those no database row owns). */
  list(): AsyncIterable<{ storedName: string; storeUploadId: string; startedAt: Date }>;
}

/** The store configuration chose: STORAGE_URL's bucket, else the MEDIA_DIR folder. One per process. */
export function fileStore(): Promise<FileStore> {
  return remember("fileStore", openConfiguredStore);
}

async function openConfiguredStore(): Promise<FileStore> {
  const config = env();
  if (config.S3) {
    const { S3Store } = await import("./s3-store.server");
    return new S3Store(config.S3, config.MEDIA_DIR);
  }
  const { LocalStore } = await import("./local-store.server");
  return new LocalStore(config.MEDIA_DIR);
}

/** Stored names are chosen by the shop (random, a fixed alphabet): anything else is never looked up. */
export function isStoredName(name: string): boolean {
  return /^[a-z0-9-]+(\.[a-z0-9]+)?$/.test(name);
}

/** The exact size of chunk `index` (the last one is what is left). */
export function chunkLength(
  upload: Pick<ChunkedUpload, "chunkSize" | "fileSize" | "totalChunks">,
  index: number,
): number {
  return index === upload.totalChunks - 1 ? upload.fileSize - index * upload.chunkSize : upload.chunkSize;
}

/** Sweeps that list the whole bucket load the AWS SDK; a process that has not needed it does them once a day. */
const LISTING_SWEEP_EVERY_MS = DAY_MS;
let lastListingSweep = Date.now();

/**
 * Whether the hourly clean-up should list the store for leftovers of crashes (uploads and files no
 * row owns): always for the folder and for a process that already has the SDK loaded (it has been
 * storing files), else once a day, so an idle storefront process stays without the SDK.
 */
export async function listingSweepDue(at = Date.now()): Promise<boolean> {
  if (!(await fileStore()).listingIsCostly()) return true;
  if (at - lastListingSweep < LISTING_SWEEP_EVERY_MS) return false;
  lastListingSweep = at;
  return true;
}
