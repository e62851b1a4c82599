import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../core/env.server";
import { loadS3 } from "../core/lazy-modules.server";
import { fileSink } from "./multipart.server";
import { S3Chunks } from "./s3-chunks.server";
import {
  isNotFound,
  isPrivateCacheControl,
  makeS3Client,
  OBJECT_CACHE_CONTROL,
  statusOf,
} from "./s3-client.server";
import { redirectToObject, signedObjectUrl, type SignedResponseHeaders } from "./s3-links.server";
import type { Audience, FileStore, ListedObject, ServeOptions, StoredObject } from "./store.server";
import { isStoredName } from "./store.server";

/** Files up to this size are sent in one PUT; bigger ones as a multipart upload of parts this big. */
const SINGLE_PUT_BYTES = 64 * 1024 * 1024;
/** S3 copies at most 5 GiB in one CopyObject; a bigger object is copied in parts of 1 GiB. */
const COPY_LIMITS = { singleCopyBytes: 5 * 1024 ** 3, copyPartBytes: 1024 ** 3 };

/**
 * Stored files as objects of an S3-compatible bucket (R2, S3, Tigris, MinIO), keyed by
 * STORAGE_URL's prefix + the stored name. Chunked uploads are S3 multipart uploads with one part
 * per chunk; reading a file is a redirect to a signed URL, so its bytes never pass through Node.
 * The AWS SDK is loaded on first use (decision 0024) by what stores, removes or lists files (an
 * admin's upload, a clean-up with something to delete), never by serving one.
 */
export class S3Store implements FileStore {
  readonly kind = "s3" as const;
  readonly chunks: S3Chunks;
  private client: Promise<S3Client> | undefined;

  /**
   * `isName`: the names this store may address (any other is refused, and skipped in listings):
   * the shop's stored names; the snapshots' own store (backups/snapshot-places.server.ts) passes
   * theirs, so no route that serves stored files can ever reach a snapshot.
   */
  constructor(
    readonly config: S3Config,
    private readonly mediaDir: string,
    private readonly isName: (name: string) => boolean = isStoredName,
  ) {
    this.chunks = new S3Chunks(this);
  }

  /** The SDK client, made once (s3-client.server.ts). */
  s3(): Promise<S3Client> {
    this.client ??= makeS3Client(this.config);
    return this.client;
  }

  key(name: string): string {
    if (!this.isName(name)) throw new Error(`invalid stored name: ${JSON.stringify(name)}`);
    return `${this.config.prefix}${name}`;
  }

  get bucket(): string {
    return this.config.bucket;
  }

  /** Spooled bodies stay on this server's own disk until they are sent to the bucket. */
  scratchDir(): string {
    return path.join(path.resolve(this.mediaDir), "uploads");
  }

  async putFile(name: string, file: string, contentType: string, audience: Audience): Promise<void> {
    await this.copyFile(name, file, contentType, await sha256OfFile(file), audience);
    await fsp.rm(file, { force: true });
  }

  /**
   * Sends a file of this server's disk to the bucket, keeping it: one PUT up to 64 MiB, else a
   * multipart upload. Its SHA-256 goes along as the object's metadata (backups list it).
   */
  async copyFile(
    name: string,
    file: string,
    contentType: string,
    sha256: string,
    audience: Audience,
  ): Promise<void> {
    const size = (await fsp.stat(file)).size;
    const headers = objectHeaders(contentType, sha256, audience);
    if (size <= SINGLE_PUT_BYTES) return this.put(name, fs.createReadStream(file), size, headers);
    await this.chunks.sendFile(name, file, size, SINGLE_PUT_BYTES, headers);
  }

  async putBytes(name: string, bytes: Buffer, contentType: string, audience: Audience): Promise<void> {
    const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
    await this.put(name, bytes, bytes.length, objectHeaders(contentType, sha256, audience));
  }

  /**
   * Makes a stored object private (an object stored before the shop told audiences apart): copied
   * onto itself with the private Cache-Control, its type and SHA-256 kept, its bytes untouched.
   * Idempotent: an object already private, or gone, is left as it is. (`limits`: the tests copy a
   * small object in parts.)
   */
  async makePrivate(
    name: string,
    limits = COPY_LIMITS,
  ): Promise<"made-private" | "already-private" | "missing"> {
    const head = await this.head(name);
    if (!head) return "missing";
    if (isPrivateCacheControl(head.cacheControl)) return "already-private";
    const headers = {
      ContentType: head.contentType ?? undefined,
      CacheControl: OBJECT_CACHE_CONTROL.private,
      Metadata: head.metadata,
    };
    if (head.size <= limits.singleCopyBytes) {
      const { CopyObjectCommand } = await loadS3();
      await (
        await this.s3()
      ).send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.key(name),
          CopySource: this.copySource(name),
          // Only the object read above: one replaced meanwhile is not given its headers.
          CopySourceIfMatch: head.etag,
          MetadataDirective: "REPLACE",
          ...headers,
        }),
      );
    } else await this.chunks.copyInParts(name, head.size, limits.copyPartBytes, head.etag, headers);
    return "made-private";
  }

  /** The object as CopyObject names its source: bucket/key, URL-encoded. */
  copySource(name: string): string {
    return `${this.bucket}/${this.key(name)}`.split("/").map(encodeURIComponent).join("/");
  }

  /** One PUT of the whole object. */
  private async put(
    name: string,
    body: Readable | Buffer,
    length: number,
    headers: ObjectHeaders,
  ): Promise<void> {
    const { PutObjectCommand } = await loadS3();
    await (
      await this.s3()
    ).send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(name),
        ...headers,
        Body: body,
        ContentLength: length,
      }),
    );
  }

  async stat(name: string): Promise<StoredObject | null> {
    const head = await this.head(name);
    return head ? { size: head.size, modified: head.modified } : null;
  }

  /** Size, time, ETag and the SHA-256 the shop recorded when it stored the object (when it did). */
  async head(name: string): Promise<{
    size: number;
    modified: Date;
    etag: string;
    sha256: string | null;
    contentType: string | null;
    cacheControl: string | null;
    metadata: Record<string, string>;
  } | null> {
    const { HeadObjectCommand } = await loadS3();
    try {
      const head = await (
        await this.s3()
      ).send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return {
        size: head.ContentLength ?? 0,
        modified: head.LastModified ?? new Date(0),
        etag: head.ETag ?? "",
        sha256: head.Metadata?.sha256 ?? null,
        contentType: head.ContentType ?? null,
        cacheControl: head.CacheControl ?? null,
        metadata: head.Metadata ?? {},
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async readHead(name: string, length: number): Promise<Buffer> {
    const { GetObjectCommand } = await loadS3();
    try {
      const answer = await (
        await this.s3()
      ).send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name), Range: `bytes=0-${length - 1}` }),
      );
      const bytes = Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
      return bytes.subarray(0, length);
    } catch (error) {
      // 416: an empty object has no first bytes.
      if (isNotFound(error) || statusOf(error) === 416) return Buffer.alloc(0);
      throw error;
    }
  }

  async readStream(name: string): Promise<Readable> {
    const { GetObjectCommand } = await loadS3();
    const answer = await (
      await this.s3()
    ).send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
    if (!(answer.Body instanceof Readable)) throw new Error(`no body for ${name}`);
    return answer.Body;
  }

  /** The copy keeps the disk's reserve as an upload does (fileSink): a disk too full for it throws NoRoomForUpload. */
  async withLocalCopy<T>(name: string, work: (file: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.scratchDir(), { recursive: true });
    const copy = path.join(this.scratchDir(), `copy-${crypto.randomBytes(12).toString("hex")}.tmp`);
    try {
      const handle = await fsp.open(copy, "w");
      try {
        const sink = fileSink(handle, 0, Number.POSITIVE_INFINITY, this.scratchDir());
        for await (const piece of (await this.readStream(name)) as AsyncIterable<Buffer>)
          await sink.write(piece);
        await sink.end();
      } finally {
        await handle.close();
      }
      return await work(copy);
    } finally {
      await fsp.rm(copy, { force: true });
    }
  }

  async remove(name: string): Promise<void> {
    if (!this.isName(name)) return;
    const { DeleteObjectCommand } = await loadS3();
    await (await this.s3()).send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
  }

  async *list(namePrefix: string): AsyncIterable<ListedObject & { etag: string }> {
    const { ListObjectsV2Command } = await loadS3();
    const s3 = await this.s3();
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: `${this.config.prefix}${namePrefix}`,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? "").slice(this.config.prefix.length);
        if (!this.isName(name)) continue;
        yield {
          name,
          size: object.Size ?? 0,
          modified: object.LastModified ?? new Date(0),
          etag: object.ETag ?? "",
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async respond(_request: Request, name: string, options: ServeOptions): Promise<Response> {
    return redirectToObject(this.config, this.key(name), options);
  }

  /** A GET URL for the object signed for `lifetime` seconds (s3-links.server.ts). */
  signedUrl(name: string, lifetime: number, signingDate: Date, headers: SignedResponseHeaders = {}): string {
    return signedObjectUrl(this.config, this.key(name), lifetime, signingDate, headers);
  }

  /** Listing needs the SDK: costly until this process has loaded it (it stored, removed or listed something). */
  listingIsCostly(): boolean {
    return this.client === undefined;
  }
}

type ObjectHeaders = ReturnType<typeof objectHeaders>;

/** What every stored object carries: its type, the cache rule of its audience, its SHA-256 (backups list it). */
function objectHeaders(contentType: string, sha256: string, audience: Audience) {
  return {
    ContentType: contentType || undefined,
    CacheControl: OBJECT_CACHE_CONTROL[audience],
    Metadata: { sha256 } as Record<string, string>,
  };
}

/** A file's SHA-256, as the objects' metadata records it (backups and the migration compare it). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const piece of fs.createReadStream(file, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>)
    hash.update(piece);
  return hash.digest("hex");
}
