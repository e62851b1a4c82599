import fs from "node:fs";
import path from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { e2eWorkDir, objectStorage } from "./work-dir";

/** The bucket of the object-storage server (e2e/support/server.mjs with E2E_STORAGE=s3) and its key prefix. */
export const E2E_BUCKET = "shop-e2e";
export const E2E_PREFIX = "media/";

let client: S3Client | undefined;
function s3(): S3Client {
  client ??= new S3Client({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${process.env.E2E_S3_BUCKET_PORT}`,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return client;
}

/** A stored file's bytes as the server under test keeps them (its MEDIA_DIR, or its bucket); null when it is not there. */
export async function storedBytes(name: string): Promise<Buffer | null> {
  if (!objectStorage()) {
    const file = path.join(e2eWorkDir(), "media", name);
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  }
  try {
    const answer = await s3().send(new GetObjectCommand({ Bucket: E2E_BUCKET, Key: `${E2E_PREFIX}${name}` }));
    return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
  } catch (error) {
    if ((error as { name?: string }).name === "NoSuchKey") return null;
    throw error;
  }
}

/** The chunk size the server under test was started with (e2e/support/server.mjs). */
export function chunkBytes(): number {
  return objectStorage() ? 5 * 1024 * 1024 : 65536;
}

/**
 * The sample video as the chunked-upload tests send it: against object storage, made to span
 * several 5 MiB chunks by a `free` box (which players skip) after the movie.
 */
export function uploadFixture(): string {
  const original = path.resolve(import.meta.dirname, "../fixtures", "sample-recital.mp4");
  if (!objectStorage()) return original;
  const padded = path.join(e2eWorkDir(), "sample-recital.mp4");
  if (!fs.existsSync(padded)) {
    const size = 11 * 1024 * 1024;
    const movie = fs.readFileSync(original);
    const free = Buffer.alloc(size - movie.length);
    free.writeUInt32BE(free.length, 0);
    free.write("free", 4, "latin1");
    fs.writeFileSync(`${padded}.${process.pid}.part`, Buffer.concat([movie, free]));
    fs.renameSync(`${padded}.${process.pid}.part`, padded);
  }
  return padded;
}
