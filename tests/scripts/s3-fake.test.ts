// The tests' fake S3 (tests/helpers/s3-fake), through the real AWS SDK configured as the shop's
// client is (s3-store.server.ts): what the shop relies on S3 for must hold here, refusals included.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeS3, type FakeS3 } from "../helpers/s3-fake/index.mjs";

const BUCKET = "fake-test";
const MiB = 1024 * 1024;
let fake: FakeS3;
let s3: S3Client;
const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3-fake-test-"));

beforeAll(async () => {
  fake = await startFakeS3({ directory, buckets: [BUCKET] });
  s3 = new S3Client({
    region: "us-east-1",
    endpoint: fake.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "FAKETESTKEY", secretAccessKey: "fake-test-secret" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
});
afterAll(async () => {
  s3.destroy();
  await fake.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

const md5 = (bytes: Buffer) => crypto.createHash("md5").update(bytes).digest("hex");

async function bytesOf(key: string, range?: string) {
  const answer = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: range }));
  return { answer, bytes: Buffer.from((await answer.Body?.transformToByteArray()) ?? []) };
}

/** The error a command is refused with: its S3 code (the SDK's name) and HTTP status. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { name, $metadata } = error as { name: string; $metadata?: { httpStatusCode?: number } };
    return { name, status: $metadata?.httpStatusCode };
  }
  throw new Error("the command was not refused");
}

/** A multipart upload begun for the key, and a function sending its parts (ETags back). */
async function begin(key: string) {
  const { UploadId } = await s3.send(
    new CreateMultipartUploadCommand({
      Bucket: BUCKET,
      Key: key,
      ContentType: "video/mp4",
      CacheControl: "public, max-age=31536000, immutable",
      Metadata: { sha256: "abc" },
    }),
  );
  const uploadId = UploadId!;
  const part = async (PartNumber: number, Body: Buffer) =>
    (
      await s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body,
          ContentLength: Body.length,
        }),
      )
    ).ETag!;
  const complete = (parts: { PartNumber: number; ETag: string }[]) =>
    s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  const parts = async () =>
    (await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }))).Parts ?? [];
  return { uploadId, part, complete, parts };
}

/** Sends a request by hand: signed (an Authorization header) or not, its body cut off after `send` bytes. */
function rawRequest(
  method: string,
  urlPath: string,
  options: { signed?: boolean; declared?: number; send?: Buffer; cut?: boolean } = {},
) {
  return new Promise<{ status: number; body: string } | "cut">((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: fake.port,
        method,
        path: urlPath,
        headers: {
          ...(options.signed !== false && {
            Authorization:
              "AWS4-HMAC-SHA256 Credential=FAKETESTKEY/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0",
          }),
          ...(options.declared !== undefined && { "Content-Length": options.declared }),
        },
      },
      (response) => {
        let body = "";
        response.on("data", (piece: Buffer) => (body += piece.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", (error) => (options.cut ? resolve("cut") : reject(error)));
    if (options.send) request.write(options.send);
    if (options.cut) setTimeout(() => request.destroy(), 100);
    else request.end();
  });
}

describe("objects", () => {
  it("are stored with their headers and metadata, read back with an MD5 ETag, and told apart by HEAD from a missing key", async () => {
    const bytes = crypto.randomBytes(10_000);
    const put = await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: "objects/日本語 name.mp4",
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: "video/mp4",
        CacheControl: "public, max-age=31536000, immutable",
        ContentDisposition: "inline",
        Metadata: { sha256: "0123" },
      }),
    );
    expect(put.ETag).toBe(`"${md5(bytes)}"`);
    const { answer, bytes: read } = await bytesOf("objects/日本語 name.mp4");
    expect(read.equals(bytes)).toBe(true);
    expect(answer).toMatchObject({
      ETag: `"${md5(bytes)}"`,
      ContentType: "video/mp4",
      CacheControl: "public, max-age=31536000, immutable",
      ContentDisposition: "inline",
      ContentLength: bytes.length,
      Metadata: { sha256: "0123" },
    });
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "objects/日本語 name.mp4" }));
    expect(head).toMatchObject({
      ContentLength: bytes.length,
      ETag: `"${md5(bytes)}"`,
      Metadata: { sha256: "0123" },
    });
    expect(head.LastModified).toBeInstanceOf(Date);

    expect(await refusal(bytesOf("objects/none"))).toEqual({ name: "NoSuchKey", status: 404 });
    expect(await refusal(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "objects/none" })))).toEqual({
      name: "NotFound",
      status: 404,
    });
  });

  it("a PUT that replaces an object replaces it whole; DELETE removes it, and deleting a missing key is not an error", async () => {
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: "objects/replaced", Body: "first", ContentLength: 5 }),
    );
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: "objects/replaced", Body: "second!", ContentLength: 7 }),
    );
    expect((await bytesOf("objects/replaced")).bytes.toString()).toBe("second!");
    // Sent without a type (the SDK always names one), an object is S3's binary/octet-stream.
    expect(
      await rawRequest("PUT", `/${BUCKET}/objects/untyped`, { declared: 2, send: Buffer.from("ab") }),
    ).toMatchObject({ status: 200 });
    expect((await bytesOf("objects/untyped")).answer.ContentType).toBe("binary/octet-stream");
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: "objects/replaced" }));
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: "objects/replaced" }));
    expect(await refusal(bytesOf("objects/replaced"))).toEqual({ name: "NoSuchKey", status: 404 });
    expect(fs.readdirSync(path.join(directory, BUCKET, "data"))).toHaveLength(
      fs.readdirSync(path.join(directory, BUCKET, "objects")).length,
    );
  });

  it("several are deleted by one DeleteObjects (a missing key too), which S3 takes only with a digest of its body", async () => {
    for (const key of ["batch/a", "batch/b", "batch/c"])
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: key, ContentLength: key.length }));
    const answer = await s3.send(
      new DeleteObjectsCommand({
        Bucket: BUCKET,
        Delete: { Objects: [{ Key: "batch/a" }, { Key: "batch/c" }, { Key: "batch/never" }] },
      }),
    );
    expect(answer.Deleted?.map((deleted) => deleted.Key)).toEqual(["batch/a", "batch/c", "batch/never"]);
    const left = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "batch/" }));
    expect(left.Contents?.map((object) => object.Key)).toEqual(["batch/b"]);
    const body = Buffer.from("<Delete><Object><Key>batch/b</Key></Object></Delete>");
    const undigested = await rawRequest("POST", `/${BUCKET}?delete`, { declared: body.length, send: body });
    expect(undigested).toMatchObject({ status: 400 });
    expect((undigested as { body: string }).body).toContain("<Code>InvalidRequest</Code>");
    expect((await bytesOf("batch/b")).bytes.toString()).toBe("batch/b");
  });

  it("honour Range: 206 with Content-Range, open and suffix ranges, 416 past the end and on an empty object", async () => {
    const bytes = crypto.randomBytes(1000);
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: "range/r", Body: bytes, ContentLength: bytes.length }),
    );
    const first = await bytesOf("range/r", "bytes=0-99");
    expect(first.answer.$metadata.httpStatusCode).toBe(206);
    expect(first.answer.ContentRange).toBe("bytes 0-99/1000");
    expect(first.bytes.equals(bytes.subarray(0, 100))).toBe(true);
    expect((await bytesOf("range/r", "bytes=990-")).bytes.equals(bytes.subarray(990))).toBe(true);
    expect((await bytesOf("range/r", "bytes=-10")).bytes.equals(bytes.subarray(990))).toBe(true);
    expect((await bytesOf("range/r", "bytes=900-5000")).answer.ContentRange).toBe("bytes 900-999/1000");
    expect(await refusal(bytesOf("range/r", "bytes=1000-"))).toEqual({ name: "InvalidRange", status: 416 });
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "range/empty", Body: "", ContentLength: 0 }));
    expect(await refusal(bytesOf("range/empty", "bytes=0-8"))).toEqual({ name: "InvalidRange", status: 416 });
    expect((await bytesOf("range/empty")).bytes).toHaveLength(0);
  });

  it("are listed under a prefix in key order, max-keys at a time, with continuation tokens", async () => {
    const keys = Array.from({ length: 7 }, (_, index) => `list/item-${index}`);
    for (const key of [...keys].reverse())
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: key, ContentLength: key.length }));
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: "listing-other", Body: "x", ContentLength: 1 }),
    );
    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "list/", MaxKeys: 3, ContinuationToken: token }),
      );
      pages.push((page.Contents ?? []).map((object) => object.Key!));
      expect(page.KeyCount).toBe(page.Contents?.length ?? 0);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    expect(pages).toEqual([keys.slice(0, 3), keys.slice(3, 6), keys.slice(6)]);
    const all = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "list/item-6" }));
    expect(all.Contents?.[0]).toMatchObject({
      Key: "list/item-6",
      Size: 11,
      ETag: `"${md5(Buffer.from("list/item-6"))}"`,
    });
    expect(all.IsTruncated).toBe(false);
  });

  it("with a delimiter roll keys up into common prefixes, in ListObjectsV2 and in ListObjects (v1, Litestream's) with markers", async () => {
    for (const key of ["tree/a/1", "tree/a/2", "tree/b/1", "tree/c", "tree/d/x/1"])
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: "x" }));
    const v2 = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "tree/", Delimiter: "/" }));
    expect(v2.CommonPrefixes?.map((entry) => entry.Prefix)).toEqual(["tree/a/", "tree/b/", "tree/d/"]);
    expect(v2.Contents?.map((entry) => entry.Key)).toEqual(["tree/c"]);
    const pages: string[][] = [];
    let marker: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsCommand({
          Bucket: BUCKET,
          Prefix: "tree/",
          Delimiter: "/",
          MaxKeys: 2,
          Marker: marker,
        }),
      );
      pages.push([
        ...(page.Contents ?? []).map((entry) => entry.Key!),
        ...(page.CommonPrefixes ?? []).map((entry) => entry.Prefix!),
      ]);
      marker = page.IsTruncated ? page.NextMarker : undefined;
    } while (marker);
    expect(pages).toEqual([
      ["tree/a/", "tree/b/"],
      ["tree/c", "tree/d/"],
    ]);
    const flat = await s3.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: "tree/a/" }));
    expect(flat.Contents?.map((entry) => entry.Key)).toEqual(["tree/a/1", "tree/a/2"]);
  });
});

describe("multipart uploads", () => {
  it("join their parts into the object, with the headers given at the start and S3's ETag (MD5 of the parts' MD5s, -N)", async () => {
    const parts = [crypto.randomBytes(5 * MiB), crypto.randomBytes(5 * MiB), crypto.randomBytes(1234)];
    const upload = await begin("multi/whole.mp4");
    const etags = [];
    for (const [index, bytes] of parts.entries()) etags.push(await upload.part(index + 1, bytes));
    expect(etags).toEqual(parts.map((bytes) => `"${md5(bytes)}"`));
    const listedUploads = await s3.send(
      new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: "multi/" }),
    );
    expect(listedUploads.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([
      ["multi/whole.mp4", upload.uploadId],
    ]);
    // ListParts pages through the parts too.
    const firstPage = await s3.send(
      new ListPartsCommand({
        Bucket: BUCKET,
        Key: "multi/whole.mp4",
        UploadId: upload.uploadId,
        MaxParts: 2,
      }),
    );
    expect(firstPage.Parts?.map((part) => [part.PartNumber, part.Size, part.ETag])).toEqual([
      [1, 5 * MiB, etags[0]],
      [2, 5 * MiB, etags[1]],
    ]);
    expect(firstPage.IsTruncated).toBe(true);
    const secondPage = await s3.send(
      new ListPartsCommand({
        Bucket: BUCKET,
        Key: "multi/whole.mp4",
        UploadId: upload.uploadId,
        PartNumberMarker: firstPage.NextPartNumberMarker,
      }),
    );
    expect(secondPage.Parts?.map((part) => part.PartNumber)).toEqual([3]);

    const done = await upload.complete(etags.map((ETag, index) => ({ PartNumber: index + 1, ETag })));
    const expected = crypto
      .createHash("md5")
      .update(Buffer.concat(parts.map((bytes) => Buffer.from(md5(bytes), "hex"))))
      .digest("hex");
    expect(done.ETag).toBe(`"${expected}-3"`);
    const { answer, bytes } = await bytesOf("multi/whole.mp4");
    expect(bytes.equals(Buffer.concat(parts))).toBe(true);
    expect(answer).toMatchObject({
      ETag: `"${expected}-3"`,
      ContentType: "video/mp4",
      CacheControl: "public, max-age=31536000, immutable",
      Metadata: { sha256: "abc" },
    });
    // Completed: the upload is gone.
    expect(
      (await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: "multi/" }))).Uploads ?? [],
    ).toEqual([]);
    expect(await refusal(upload.parts())).toEqual({ name: "NoSuchUpload", status: 404 });
  });

  it("are refused completion as S3 refuses it: a small part before the last, an ETag not stored, parts out of order, nothing named", async () => {
    const upload = await begin("multi/refused.mp4");
    const small = await upload.part(1, crypto.randomBytes(1000));
    const last = await upload.part(2, crypto.randomBytes(1000));
    expect(
      await refusal(
        upload.complete([
          { PartNumber: 1, ETag: small },
          { PartNumber: 2, ETag: last },
        ]),
      ),
    ).toEqual({ name: "EntityTooSmall", status: 400 });
    const big = await upload.part(1, crypto.randomBytes(5 * MiB));
    expect(
      await refusal(
        upload.complete([
          { PartNumber: 1, ETag: small },
          { PartNumber: 2, ETag: last },
        ]),
      ),
    ).toEqual({ name: "InvalidPart", status: 400 });
    expect(await refusal(upload.complete([{ PartNumber: 3, ETag: last }]))).toEqual({
      name: "InvalidPart",
      status: 400,
    });
    expect(
      await refusal(
        upload.complete([
          { PartNumber: 2, ETag: last },
          { PartNumber: 1, ETag: big },
        ]),
      ),
    ).toEqual({ name: "InvalidPartOrder", status: 400 });
    expect(await refusal(upload.complete([]))).toEqual({ name: "MalformedXML", status: 400 });
    // None of that completed anything: the right list still does.
    expect(await refusal(bytesOf("multi/refused.mp4"))).toEqual({ name: "NoSuchKey", status: 404 });
    await upload.complete([
      { PartNumber: 1, ETag: big },
      { PartNumber: 2, ETag: last },
    ]);
    expect((await bytesOf("multi/refused.mp4")).bytes).toHaveLength(5 * MiB + 1000);
  });

  it("once aborted, refuse parts, listing and completion with NoSuchUpload; an unknown upload id or another key is NoSuchUpload too", async () => {
    const upload = await begin("multi/aborted.mp4");
    const etag = await upload.part(1, crypto.randomBytes(100));
    expect(
      await refusal(
        s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: "multi/other.mp4", UploadId: upload.uploadId })),
      ),
    ).toEqual({ name: "NoSuchUpload", status: 404 });
    await s3.send(
      new AbortMultipartUploadCommand({
        Bucket: BUCKET,
        Key: "multi/aborted.mp4",
        UploadId: upload.uploadId,
      }),
    );
    expect(await refusal(upload.part(2, crypto.randomBytes(100)))).toEqual({
      name: "NoSuchUpload",
      status: 404,
    });
    expect(await refusal(upload.parts())).toEqual({ name: "NoSuchUpload", status: 404 });
    expect(await refusal(upload.complete([{ PartNumber: 1, ETag: etag }]))).toEqual({
      name: "NoSuchUpload",
      status: 404,
    });
    expect(
      await refusal(
        s3.send(
          new AbortMultipartUploadCommand({
            Bucket: BUCKET,
            Key: "multi/aborted.mp4",
            UploadId: upload.uploadId,
          }),
        ),
      ),
    ).toEqual({ name: "NoSuchUpload", status: 404 });
    expect(
      await refusal(
        s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: "multi/aborted.mp4", UploadId: "not-an-id" })),
      ),
    ).toEqual({ name: "NoSuchUpload", status: 404 });
  });

  it("a part sent again replaces the earlier one whole; a part request that breaks off leaves nothing, not even over an earlier part", async () => {
    const upload = await begin("multi/cut.mp4");
    const first = crypto.randomBytes(2000);
    const etag = await upload.part(1, first);
    const url = `/${BUCKET}/multi/cut.mp4?partNumber=1&uploadId=${upload.uploadId}`;
    expect(await rawRequest("PUT", url, { declared: 4000, send: crypto.randomBytes(1500), cut: true })).toBe(
      "cut",
    );
    const url2 = `/${BUCKET}/multi/cut.mp4?partNumber=2&uploadId=${upload.uploadId}`;
    expect(await rawRequest("PUT", url2, { declared: 4000, send: crypto.randomBytes(1500), cut: true })).toBe(
      "cut",
    );
    // The server notices the broken request and removes what it received.
    const incoming = path.join(directory, ".incoming");
    await expect.poll(() => fs.readdirSync(incoming), { timeout: 5000 }).toEqual([]);
    expect((await upload.parts()).map((part) => [part.PartNumber, part.Size, part.ETag])).toEqual([
      [1, 2000, etag],
    ]);

    const again = crypto.randomBytes(3000);
    const etagAgain = await upload.part(1, again);
    expect((await upload.parts()).map((part) => [part.PartNumber, part.Size, part.ETag])).toEqual([
      [1, 3000, etagAgain],
    ]);
    await upload.complete([{ PartNumber: 1, ETag: etagAgain }]);
    expect((await bytesOf("multi/cut.mp4")).bytes.equals(again)).toBe(true);
  });

  it("under way are listed by prefix, max-uploads at a time, with key and upload id markers", async () => {
    const started = [await begin("pending/a"), await begin("pending/a"), await begin("pending/b")];
    const seen: string[] = [];
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      const page = await s3.send(
        new ListMultipartUploadsCommand({
          Bucket: BUCKET,
          Prefix: "pending/",
          MaxUploads: 2,
          KeyMarker: keyMarker,
          UploadIdMarker: idMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) seen.push(upload.UploadId!);
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      idMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    expect(seen).toHaveLength(3);
    expect(new Set(seen)).toEqual(new Set(started.map((upload) => upload.uploadId)));
  });
});

describe("signed URLs and refusals", () => {
  it("a presigned GET answers with the response-* headers it names, and honours Range and If-None-Match", async () => {
    const bytes = crypto.randomBytes(500);
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: "signed/v.mp4",
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: "application/octet-stream",
      }),
    );
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: "signed/v.mp4",
        ResponseContentType: "video/mp4",
        ResponseCacheControl: "private, max-age=600",
        ResponseContentDisposition: "attachment; filename*=UTF-8''%E5%8B%95%E7%94%BB.mp4",
      }),
      { expiresIn: 600 },
    );
    const answer = await fetch(url, { headers: { Range: "bytes=100-199" } });
    expect(answer.status).toBe(206);
    expect(answer.headers.get("Content-Type")).toBe("video/mp4");
    expect(answer.headers.get("Cache-Control")).toBe("private, max-age=600");
    expect(answer.headers.get("Content-Disposition")).toBe(
      "attachment; filename*=UTF-8''%E5%8B%95%E7%94%BB.mp4",
    );
    expect(answer.headers.get("Content-Range")).toBe("bytes 100-199/500");
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const cached = await fetch(url, { headers: { "If-None-Match": `"${md5(bytes)}"` } });
    expect(cached.status).toBe(304);
  });

  it("refuses a presigned URL past its lifetime, an unsigned request and an unknown bucket, with S3's XML errors", async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "signed/old", Body: "x", ContentLength: 1 }));
    const expired = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: "signed/old" }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 61_000),
    });
    const late = await fetch(expired);
    expect(late.status).toBe(403);
    expect(await late.text()).toContain("<Code>AccessDenied</Code>");

    const unsigned = await rawRequest("GET", `/${BUCKET}/signed/old`, { signed: false });
    expect(unsigned).toMatchObject({ status: 403 });
    expect((unsigned as { body: string }).body).toContain("<Code>AccessDenied</Code>");
    const unsignedPut = await rawRequest("PUT", `/${BUCKET}/signed/new`, {
      signed: false,
      declared: 1,
      send: Buffer.from("x"),
    });
    expect(unsignedPut).toMatchObject({ status: 403 });
    expect(await refusal(bytesOf("signed/new"))).toEqual({ name: "NoSuchKey", status: 404 });

    expect(await refusal(s3.send(new GetObjectCommand({ Bucket: "no-such-bucket", Key: "x" })))).toEqual({
      name: "NoSuchBucket",
      status: 404,
    });
  });
});

describe("copies", () => {
  it("an object copied onto itself takes new headers only with MetadataDirective REPLACE, from the object it names (If-Match), bytes unchanged", async () => {
    const bytes = crypto.randomBytes(3000);
    const { ETag } = await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: "copy/self",
        Body: bytes,
        ContentType: "video/mp4",
        CacheControl: "public, max-age=31536000, immutable",
        Metadata: { sha256: "abc" },
      }),
    );
    const self = { Bucket: BUCKET, Key: "copy/self", CopySource: `${BUCKET}/copy/self` };
    expect(await refusal(s3.send(new CopyObjectCommand(self)))).toEqual({
      name: "InvalidRequest",
      status: 400,
    });
    expect(
      await refusal(
        s3.send(new CopyObjectCommand({ ...self, CopySourceIfMatch: '"0"', MetadataDirective: "REPLACE" })),
      ),
    ).toEqual({ name: "PreconditionFailed", status: 412 });
    const copied = await s3.send(
      new CopyObjectCommand({
        ...self,
        CopySourceIfMatch: ETag,
        MetadataDirective: "REPLACE",
        ContentType: "video/mp4",
        CacheControl: "private, max-age=31536000, immutable",
        Metadata: { sha256: "abc" },
      }),
    );
    expect(copied.CopyObjectResult?.ETag).toBe(`"${md5(bytes)}"`);
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "copy/self" }));
    expect(head).toMatchObject({
      CacheControl: "private, max-age=31536000, immutable",
      ContentType: "video/mp4",
      Metadata: { sha256: "abc" },
    });
    expect((await bytesOf("copy/self")).bytes.equals(bytes)).toBe(true);
    expect(
      await refusal(s3.send(new CopyObjectCommand({ ...self, CopySource: `${BUCKET}/copy/missing` }))),
    ).toEqual({ name: "NoSuchKey", status: 404 });
  });

  it("UploadPartCopy copies a range of an object as a part, refusing a range past its end", async () => {
    const bytes = crypto.randomBytes(6 * MiB);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "copy/parts", Body: bytes }));
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: "copy/parts", CacheControl: "private" }),
    );
    const part = (PartNumber: number, CopySourceRange: string) =>
      s3.send(
        new UploadPartCopyCommand({
          Bucket: BUCKET,
          Key: "copy/parts",
          UploadId,
          PartNumber,
          CopySource: `${BUCKET}/copy/parts`,
          CopySourceRange,
        }),
      );
    expect(await refusal(part(1, `bytes=0-${6 * MiB}`))).toEqual({ name: "InvalidArgument", status: 400 });
    const first = await part(1, `bytes=0-${5 * MiB - 1}`);
    const second = await part(2, `bytes=${5 * MiB}-${6 * MiB - 1}`);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: "copy/parts",
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: first.CopyPartResult?.ETag },
            { PartNumber: 2, ETag: second.CopyPartResult?.ETag },
          ],
        },
      }),
    );
    expect((await bytesOf("copy/parts")).bytes.equals(bytes)).toBe(true);
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "copy/parts" }))).CacheControl).toBe(
      "private",
    );
  });
});
