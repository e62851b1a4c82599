// Shared by the upload benchmark and the kill-and-resume test: a large deterministic
// file (its SHA-256 computed while it is written), an admin and a contest in a fresh
// database, and a chunked-upload client that speaks the media API over HTTP.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

const MIB = 1024 * 1024;

/** The committed sample video (480×270 H.264 + AAC MP4, 3 s, about 200 KB), the start of every bench file. */
export const SAMPLE_VIDEO = fileURLToPath(new URL("../../e2e/fixtures/sample-recital.mp4", import.meta.url));

/**
 * The header of an ISO `free` box of `size` bytes, header included (players and ffprobe skip the
 * box): a 32-bit size, or past 4 GiB the size 1 and a 64-bit size after the type.
 */
export function freeBoxHeader(size) {
  if (size <= 0xffff_ffff) {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(size, 0);
    header.write("free", 4, "latin1");
    return header;
  }
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write("free", 4, "latin1");
  header.writeBigUInt64BE(BigInt(size), 8);
  return header;
}

/**
 * Writes a real video of `size` bytes, the cheap way: the sample, then a `free` box filling the
 * rest with a 1 MiB pseudo-random block stamped with its index, so every MiB differs (the shop
 * probes every upload with ffprobe, which reads the sample and skips the box). Returns the SHA-256.
 */
export async function generateFile(file, size, seed = "upload-bench") {
  const movie = fs.readFileSync(SAMPLE_VIDEO);
  if (size < movie.length + 8) throw new Error(`a bench video is at least ${movie.length + 8} bytes`);
  const header = freeBoxHeader(size - movie.length);
  const block = Buffer.alloc(MIB);
  let state = crypto.createHash("sha256").update(seed).digest();
  for (let offset = 0; offset < MIB; offset += 32) {
    state.copy(block, offset);
    state = crypto.createHash("sha256").update(state).digest();
  }
  const hash = crypto.createHash("sha256");
  const handle = await fsp.open(file, "w");
  try {
    const head = Buffer.concat([movie, header]);
    hash.update(head);
    await handle.write(head, 0, head.length, 0);
    for (let offset = head.length, index = 0; offset < size; offset += MIB, index++) {
      const piece = Buffer.from(block.subarray(0, Math.min(MIB, size - offset)));
      if (piece.length >= 16) piece.writeBigUInt64BE(BigInt(index), 8);
      hash.update(piece);
      await handle.write(piece, 0, piece.length, offset);
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}

export async function sha256OfFile(file) {
  const hash = crypto.createHash("sha256");
  for await (const piece of fs.createReadStream(file, { highWaterMark: 4 * MIB })) hash.update(piece);
  return hash.digest("hex");
}

/** An admin user and a contest straight in the (already migrated) database. */
export function seedAdminAndContest(dbFile) {
  const db = new Database(dbFile);
  try {
    const admin = db
      .prepare("insert into users (email, name, password_hash, is_admin) values (?, ?, 'x', 1) returning id")
      .get(`bench-${Date.now()}@example.jp`, "ベンチ");
    const contest = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get("アップロード計測大会", `bench-${Date.now()}`);
    return { adminId: admin.id, contestId: contest.id };
  } finally {
    db.close();
  }
}

async function json(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** POST …/chunked-init: answers {uploadId, chunkSize, totalChunks, receivedChunks}. */
export async function initUpload({ base, cookie, contestId, fileName, fileSize, contentType = "video/mp4" }) {
  const response = await fetch(`${base}/api/video/contests/${contestId}/media/chunked-init`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify({
      fileName,
      fileSize,
      contentType,
      mediaType: contentType.split("/")[0],
      totalChunks: Math.ceil(fileSize / 52428800),
      category: "sample",
    }),
  });
  const body = await json(response);
  if (!response.ok) throw new Error(`init answered ${response.status}: ${body.message}`);
  return body;
}

/**
 * Sends one chunk (fields first, then the bytes streamed from the file) with node:http:
 * fetch with FormData tops out near 100 MB/s here, which would measure the client.
 */
export function sendChunk({ base, cookie, contestId, file, fileSize, upload, index, onRequest }) {
  const boundary = `----bench${crypto.randomBytes(8).toString("hex")}`;
  const start = index * upload.chunkSize;
  const end = Math.min(start + upload.chunkSize, fileSize);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="uploadId"\r\n\r\n${upload.uploadId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="chunkIndex"\r\n\r\n${index}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${base}/api/video/contests/${contestId}/media/chunked-upload`);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        Cookie: cookie,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": head.length + (end - start) + tail.length,
      },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      const parts = [];
      response.on("data", (part) => parts.push(part));
      response.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let body;
        try {
          body = JSON.parse(text);
        } catch {
          body = { message: text };
        }
        if (response.statusCode !== 200)
          reject(new Error(`chunk ${index} answered ${response.statusCode}: ${body.message}`));
        else resolve(body);
      });
      response.on("error", reject);
    });
    onRequest?.(request);
    request.write(head);
    const bytes = fs.createReadStream(file, { start, end: end - 1, highWaterMark: MIB });
    bytes.on("error", reject);
    bytes.on("end", () => request.end(tail));
    bytes.pipe(request, { end: false });
  });
}

export async function completeUpload({ base, cookie, contestId, uploadId }) {
  const response = await fetch(`${base}/api/video/contests/${contestId}/media/chunked-complete`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ uploadId }),
  });
  const body = await json(response);
  if (!response.ok) throw new Error(`complete answered ${response.status}: ${body.message}`);
  return body;
}

/** Samples a process's peak resident memory (VmHWM; VmRSS as a fallback) in MiB. */
export function peakRssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? /VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kib / 1024;
  } catch {
    return NaN;
  }
}
