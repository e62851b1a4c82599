import { once } from "node:events";
import fs from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { loadS3 } from "../core/lazy-modules.server";
import { isNotFound, OBJECT_CACHE_CONTROL, statusOf } from "./s3-client.server";
import type { S3Store } from "./s3-store.server";
import type { Audience, ChunkedUpload, ChunkedUploads, ChunkSink, StoredPart } from "./store.server";
import { isStoredName } from "./store.server";

/** Chunked uploads as S3 multipart uploads: one part per chunk (part number = chunk index + 1). */
export class S3Chunks implements ChunkedUploads {
  constructor(private readonly store: S3Store) {}

  async begin(
    _uploadId: string,
    storedName: string,
    contentType: string,
    audience: Audience,
  ): Promise<string> {
    const { CreateMultipartUploadCommand } = await loadS3();
    const { UploadId } = await (
      await this.store.s3()
    ).send(
      new CreateMultipartUploadCommand({
        Bucket: this.store.bucket,
        Key: this.store.key(storedName),
        ContentType: contentType || undefined,
        CacheControl: OBJECT_CACHE_CONTROL[audience],
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
    const sent = this.uploadPart(upload, index, body, length, controller.signal);
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

  /** Sends one part's bytes (exactly `length` of them); answers the part's ETag. */
  async uploadPart(
    upload: ChunkedUpload,
    index: number,
    body: Readable | Buffer,
    length: number,
    signal?: AbortSignal,
  ): Promise<string> {
    const { UploadPartCommand } = await loadS3();
    const answer = await (
      await this.store.s3()
    ).send(
      new UploadPartCommand({
        Bucket: this.store.bucket,
        Key: this.store.key(upload.storedName),
        UploadId: upload.storeUploadId,
        PartNumber: index + 1,
        Body: body,
        ContentLength: length,
      }),
      { abortSignal: signal },
    );
    return answer.ETag ?? "";
  }

  /**
   * A file of this server's disk sent as a multipart upload of `partBytes` parts (a file too big
   * for one PUT), begun with the object's headers; the upload is aborted when any part fails.
   */
  async sendFile(
    name: string,
    file: string,
    size: number,
    partBytes: number,
    headers: ObjectHeaders,
  ): Promise<void> {
    await this.inParts(name, size, partBytes, headers, (upload, index, start, end) =>
      this.uploadPart(upload, index, fs.createReadStream(file, { start, end: end - 1 }), end - start),
    );
  }

  /**
   * An object copied onto itself in parts (UploadPartCopy), for one too big for CopyObject (5 GiB),
   * with new headers; `etag` is the object's as read, so one replaced meanwhile is not copied.
   */
  async copyInParts(
    name: string,
    size: number,
    partBytes: number,
    etag: string,
    headers: ObjectHeaders,
  ): Promise<void> {
    const { UploadPartCopyCommand } = await loadS3();
    await this.inParts(name, size, partBytes, headers, async (upload, index, start, end) => {
      const answer = await (
        await this.store.s3()
      ).send(
        new UploadPartCopyCommand({
          Bucket: this.store.bucket,
          Key: this.store.key(name),
          UploadId: upload.storeUploadId,
          PartNumber: index + 1,
          CopySource: this.store.copySource(name),
          CopySourceIfMatch: etag,
          CopySourceRange: `bytes=${start}-${end - 1}`,
        }),
      );
      return answer.CopyPartResult?.ETag ?? "";
    });
  }

  /** A multipart upload of `size` bytes in parts of `partBytes`, each sent by `sendPart`; aborted when one fails. */
  private async inParts(
    name: string,
    size: number,
    partBytes: number,
    headers: ObjectHeaders,
    sendPart: (upload: ChunkedUpload, index: number, start: number, end: number) => Promise<string>,
  ): Promise<void> {
    const { CreateMultipartUploadCommand } = await loadS3();
    const { UploadId } = await (
      await this.store.s3()
    ).send(
      new CreateMultipartUploadCommand({ Bucket: this.store.bucket, Key: this.store.key(name), ...headers }),
    );
    const upload = {
      uploadId: "",
      storedName: name,
      storeUploadId: UploadId ?? "",
      chunkSize: partBytes,
      fileSize: size,
      totalChunks: Math.ceil(size / partBytes),
    };
    try {
      const etags: string[] = [];
      for (let index = 0; index < upload.totalChunks; index++) {
        const start = index * partBytes;
        etags.push(await sendPart(upload, index, start, Math.min(size, start + partBytes)));
      }
      if (!(await this.complete(upload, etags))) throw new Error(`the bucket refused ${name}`);
    } catch (error) {
      await this.abort(upload);
      throw error;
    }
  }
}

/** An object's headers as the shop stores them (s3-store.server.ts objectHeaders). */
type ObjectHeaders = { ContentType?: string; CacheControl: string; Metadata: Record<string, string> };
