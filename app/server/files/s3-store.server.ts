import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../core/env.server";
import { loadS3 } from "../core/lazy-modules.server";
import { presignGetUrl } from "./s3-signature.server";
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
import { isStoredName } from "./store.server";

/** Files up to this size are sent in one PUT; bigger ones as a multipart upload of parts this big. */
const SINGLE_PUT_BYTES = 64 * 1024 * 1024;

/**
 * Signed URLs of public media are signed at the start of a window of this length and live an hour:
 * one URL for everyone during the window (browsers and the redirect can cache it), still valid
 * 50 minutes after it was handed out (a video player seeks with it).
 */
const SIGNING_WINDOW_MS = 10 * 60_000;
const MEDIA_URL_LIFETIME_S = 3600;

/** Every stored name is immutable (a new file gets a new name), so the objects may be cached for good. */
const OBJECT_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * The SDK's warnings, except the one it writes whenever a streamed request fails (the shop ends an
 * UploadPart on purpose when a chunk has the wrong size). Failed commands are not logged here: a
 * 404 is often the expected answer, and the callers log the failures that matter.
 */
const SDK_LOGGER = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (typeof message === "string" && message.includes("non-retryable streaming request")) return;
    console.warn("[s3]", message, ...rest);
  },
  error: () => undefined,
};

/**
 * Stored files as objects of an S3-compatible bucket (R2, S3, Tigris, MinIO), keyed by
 * STORAGE_URL's prefix + the stored name. Chunked uploads are S3 multipart uploads with one part
 * per chunk; reading a file is a redirect to a signed URL, so its bytes never pass through Node.
 * The AWS SDK is loaded on first use (decision 0024) by what stores, removes or lists files (an
 * admin's upload, a clean-up with something to delete), never by serving one.
 */
export class S3Store implements FileStore {
  readonly kind = "s3" as const;
  readonly chunks: ChunkedUploads;
  private client: Promise<S3Client> | undefined;

  constructor(
    readonly config: S3Config,
    private readonly mediaDir: string,
  ) {
    this.chunks = new S3Chunks(this);
  }

  /** The SDK client, made once. Flexible checksums only where S3 requires them: R2, MinIO and the tests' fake S3 do not all take the SDK's default trailers. */
  s3(): Promise<S3Client> {
    this.client ??= loadS3().then(
      ({ S3Client }) =>
        new S3Client({
          region: this.config.region,
          endpoint: this.config.endpoint,
          forcePathStyle: this.config.forcePathStyle,
          credentials: {
            accessKeyId: this.config.accessKeyId,
            secretAccessKey: this.config.secretAccessKey,
          },
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
          logger: SDK_LOGGER,
        }),
    );
    return this.client;
  }

  key(name: string): string {
    if (!isStoredName(name)) throw new Error(`invalid stored name: ${JSON.stringify(name)}`);
    return `${this.config.prefix}${name}`;
  }

  get bucket(): string {
    return this.config.bucket;
  }

  /** Spooled bodies stay on this server's own disk until they are sent to the bucket. */
  scratchDir(): string {
    return path.join(path.resolve(this.mediaDir), "uploads");
  }

  async putFile(name: string, file: string, contentType: string): Promise<void> {
    await this.copyFile(name, file, contentType, await sha256OfFile(file));
    await fsp.rm(file, { force: true });
  }

  /**
   * Sends a file of this server's disk to the bucket, keeping it: one PUT up to 64 MiB, else a
   * multipart upload. Its SHA-256 goes along as the object's metadata (backups list it).
   */
  async copyFile(name: string, file: string, contentType: string, sha256: string): Promise<void> {
    const size = (await fsp.stat(file)).size;
    const s3 = await this.s3();
    const { PutObjectCommand, CreateMultipartUploadCommand } = await loadS3();
    const common = {
      Bucket: this.bucket,
      Key: this.key(name),
      ContentType: contentType || undefined,
      CacheControl: OBJECT_CACHE_CONTROL,
      Metadata: { sha256 },
    };
    if (size <= SINGLE_PUT_BYTES) {
      await s3.send(
        new PutObjectCommand({ ...common, Body: fs.createReadStream(file), ContentLength: size }),
      );
      return;
    }
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand(common));
    const upload = {
      uploadId: "",
      storedName: name,
      storeUploadId: UploadId ?? "",
      chunkSize: SINGLE_PUT_BYTES,
      fileSize: size,
      totalChunks: Math.ceil(size / SINGLE_PUT_BYTES),
    };
    try {
      const etags: string[] = [];
      for (let index = 0; index < upload.totalChunks; index++) {
        const start = index * SINGLE_PUT_BYTES;
        const end = Math.min(size, start + SINGLE_PUT_BYTES);
        etags.push(
          await this.uploadPart(
            upload,
            index,
            fs.createReadStream(file, { start, end: end - 1 }),
            end - start,
          ),
        );
      }
      if (!(await this.chunks.complete(upload, etags))) throw new Error(`the bucket refused ${name}`);
    } catch (error) {
      await this.chunks.abort(upload);
      throw error;
    }
  }

  async putBytes(name: string, bytes: Buffer, contentType: string): Promise<void> {
    const { PutObjectCommand } = await loadS3();
    await (
      await this.s3()
    ).send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(name),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType || undefined,
        CacheControl: OBJECT_CACHE_CONTROL,
        Metadata: { sha256: crypto.createHash("sha256").update(bytes).digest("hex") },
      }),
    );
  }

  async stat(name: string): Promise<StoredObject | null> {
    const head = await this.head(name);
    return head ? { size: head.size, modified: head.modified } : null;
  }

  /** Size, time, ETag and the SHA-256 the shop recorded when it stored the object (when it did). */
  async head(
    name: string,
  ): Promise<{ size: number; modified: Date; etag: string; sha256: string | null } | null> {
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

  async withLocalCopy<T>(name: string, work: (file: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.scratchDir(), { recursive: true });
    const copy = path.join(this.scratchDir(), `copy-${crypto.randomBytes(12).toString("hex")}.tmp`);
    try {
      await pipeline(await this.readStream(name), fs.createWriteStream(copy));
      return await work(copy);
    } finally {
      await fsp.rm(copy, { force: true });
    }
  }

  async remove(name: string): Promise<void> {
    if (!isStoredName(name)) return;
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
        if (!isStoredName(name)) continue;
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

  async respond(request: Request, name: string, options: ServeOptions): Promise<Response> {
    const { publicBaseUrl } = this.config;
    if (options.audience === "public" && publicBaseUrl)
      return redirectTo(`${publicBaseUrl}/${encodeKey(this.key(name))}`, options.cacheControl);
    const lifetime = options.urlLifetimeSeconds ?? MEDIA_URL_LIFETIME_S;
    // Media URLs are signed per window, so the browser's cache of the object and of this redirect
    // holds for the window; a download's is signed now and lives only minutes.
    const windowed = options.urlLifetimeSeconds === undefined;
    // The bucket checks a signature against the real time, not the shop's clock (which tests move).
    const signedAt = Date.now();
    const signingDate = new Date(
      windowed ? Math.floor(signedAt / SIGNING_WINDOW_MS) * SIGNING_WINDOW_MS : signedAt,
    );
    const url = this.signedUrl(name, lifetime, signingDate, {
      ResponseContentType: options.contentType,
      ResponseCacheControl: options.cacheControl,
      ResponseContentDisposition: options.disposition,
    });
    const scope = options.audience === "public" ? "public" : "private";
    return redirectTo(url, windowed ? `${scope}, max-age=${SIGNING_WINDOW_MS / 1000}` : "private, no-store");
  }

  /**
   * A GET URL for the object signed for `lifetime` seconds; the response headers it names are
   * S3's to send. Signed without the SDK (s3-signature.server.ts): serving never loads it.
   */
  signedUrl(
    name: string,
    lifetime: number,
    signingDate: Date,
    headers: {
      ResponseContentType?: string;
      ResponseCacheControl?: string;
      ResponseContentDisposition?: string;
    } = {},
  ): string {
    return presignGetUrl(this.config, this.key(name), {
      expiresIn: lifetime,
      signingDate,
      responseHeaders: {
        "response-cache-control": headers.ResponseCacheControl,
        "response-content-disposition": headers.ResponseContentDisposition,
        "response-content-type": headers.ResponseContentType,
      },
    });
  }

  /** Listing needs the SDK: costly until this process has loaded it (it stored, removed or listed something). */
  listingIsCostly(): boolean {
    return this.client === undefined;
  }

  async uploadPart(
    upload: ChunkedUpload,
    index: number,
    body: Readable | Buffer,
    length: number,
    signal?: AbortSignal,
  ) {
    const { UploadPartCommand } = await loadS3();
    const answer = await (
      await this.s3()
    ).send(
      new UploadPartCommand({
        Bucket: this.bucket,
        Key: this.key(upload.storedName),
        UploadId: upload.storeUploadId,
        PartNumber: index + 1,
        Body: body,
        ContentLength: length,
      }),
      { abortSignal: signal },
    );
    return answer.ETag ?? "";
  }
}

class S3Chunks implements ChunkedUploads {
  constructor(private readonly store: S3Store) {}

  async begin(_uploadId: string, storedName: string, contentType: string): Promise<string> {
    const { CreateMultipartUploadCommand } = await loadS3();
    const { UploadId } = await (
      await this.store.s3()
    ).send(
      new CreateMultipartUploadCommand({
        Bucket: this.store.bucket,
        Key: this.store.key(storedName),
        ContentType: contentType || undefined,
        CacheControl: OBJECT_CACHE_CONTROL,
      }),
    );
    if (!UploadId) throw new Error("the bucket gave no upload id");
    return UploadId;
  }

  /**
   * The chunk's bytes flow into UploadPart as they arrive, all but the last one: S3 takes a part
   * as soon as Content-Length bytes are in, so holding the last byte back until the chunk has
   * ended with exactly its length means a short or over-long chunk never replaces a stored part.
   */
  async sink(upload: ChunkedUpload, index: number, length: number): Promise<ChunkSink> {
    const body = new PassThrough({ highWaterMark: 1024 * 1024 });
    const controller = new AbortController();
    const sent = this.store.uploadPart(upload, index, body, length, controller.signal);
    // Rejections are read in finish/abort; until then a failure only has to stop the writes.
    const failed = sent.then(
      () => null,
      (error: unknown) => error,
    );
    let received = 0;
    let last: Buffer | null = null;
    const feed = async (bytes: Buffer) => {
      if (bytes.length === 0) return;
      if (!body.write(bytes)) {
        const outcome = await Promise.race([once(body, "drain").then(() => null), failed]);
        if (outcome) throw outcome;
      }
    };
    return {
      async write(bytes) {
        const from = received;
        received += bytes.length;
        const keep = Math.max(0, Math.min(bytes.length, length - from));
        if (keep === 0) return;
        const upTo = from + keep === length ? keep - 1 : keep;
        await feed(bytes.subarray(0, upTo));
        if (upTo < keep) last = Buffer.from(bytes.subarray(upTo, keep));
      },
      async end() {},
      received: () => received,
      tooBig: () => received > length,
      async finish() {
        body.end(last ?? undefined);
        return await sent;
      },
      async abort() {
        controller.abort();
        body.destroy();
        await failed;
      },
    };
  }

  async parts(upload: ChunkedUpload): Promise<StoredPart[] | null> {
    const { ListPartsCommand } = await loadS3();
    const s3 = await this.store.s3();
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await s3.send(
          new ListPartsCommand({
            Bucket: this.store.bucket,
            Key: this.store.key(upload.storedName),
            UploadId: upload.storeUploadId,
            PartNumberMarker: marker,
          }),
        );
        for (const part of page.Parts ?? [])
          parts.push({ partNumber: part.PartNumber ?? 0, size: part.Size ?? 0, etag: part.ETag ?? null });
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async complete(upload: ChunkedUpload, etags: (string | null)[]): Promise<boolean> {
    const { CompleteMultipartUploadCommand } = await loadS3();
    try {
      await (
        await this.store.s3()
      ).send(
        new CompleteMultipartUploadCommand({
          Bucket: this.store.bucket,
          Key: this.store.key(upload.storedName),
          UploadId: upload.storeUploadId,
          MultipartUpload: {
            Parts: etags.map((etag, index) => ({ PartNumber: index + 1, ETag: etag ?? "" })),
          },
        }),
      );
      return true;
    } catch (error) {
      // The parts are not what the shop recorded (InvalidPart), or the upload is gone: start again.
      if (isNotFound(error) || statusOf(error) === 400) return false;
      throw error;
    }
  }

  async abort(upload: Pick<ChunkedUpload, "storedName" | "storeUploadId">): Promise<void> {
    const { AbortMultipartUploadCommand } = await loadS3();
    try {
      await (
        await this.store.s3()
      ).send(
        new AbortMultipartUploadCommand({
          Bucket: this.store.bucket,
          Key: this.store.key(upload.storedName),
          UploadId: upload.storeUploadId,
        }),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async *list(): AsyncIterable<{ storedName: string; storeUploadId: string; startedAt: Date }> {
    const { ListMultipartUploadsCommand } = await loadS3();
    const s3 = await this.store.s3();
    const { prefix } = this.store.config;
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      const page = await s3.send(
        new ListMultipartUploadsCommand({
          Bucket: this.store.bucket,
          Prefix: prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: idMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        const storedName = (upload.Key ?? "").slice(prefix.length);
        if (!isStoredName(storedName) || !upload.UploadId) continue;
        yield { storedName, storeUploadId: upload.UploadId, startedAt: upload.Initiated ?? new Date(0) };
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      idMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return statusOf(error) === 404 || name === "NotFound" || name === "NoSuchKey" || name === "NoSuchUpload";
}

/** A key in a URL path: each segment percent-encoded, the slashes kept. */
function encodeKey(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

function redirectTo(url: string, cacheControl: string): Response {
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": cacheControl } });
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const piece of fs.createReadStream(file, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>)
    hash.update(piece);
  return hash.digest("hex");
}
