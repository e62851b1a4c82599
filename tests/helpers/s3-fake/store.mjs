// The bucket's contents on disk. An object is a data file and a small JSON record naming it (key,
// size, ETag, headers); the record is replaced by a rename, so a reader sees the old object or the
// new one, never a mix. Bodies are received into a temporary file and renamed into place only once
// whole: a request that breaks off leaves nothing behind, as S3 stores a body whole or not at all.
//
//   <root>/.incoming/<random>                 bodies being received
//   <root>/<bucket>/objects/<sha256(key)>.json the object's record
//   <root>/<bucket>/data/<random>             its bytes
//   <root>/<bucket>/uploads/<id>/upload.json  a multipart upload begun (key, headers, start)
//   <root>/<bucket>/uploads/<id>/<n>.json     part n's record, naming part-<n>-<random> beside it
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

const hashOf = (key) => crypto.createHash("sha256").update(key).digest("hex");
const randomName = () => crypto.randomBytes(12).toString("hex");
const UPLOAD_ID = /^[a-f0-9]{32}$/;

/** Reads a JSON record; null when it is not there. */
async function readRecord(file) {
  try {
    return JSON.parse(await fsp.readFile(file, "utf8"));
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
}

/** Writes a JSON record whole (a temporary file renamed over it). */
async function writeRecord(file, record) {
  const temporary = `${file}.${randomName()}.tmp`;
  await fsp.writeFile(temporary, JSON.stringify(record));
  await fsp.rename(temporary, file);
}

async function removeQuietly(file) {
  await fsp.rm(file, { force: true, recursive: true });
}

export class BucketStore {
  /** @param {string} root @param {string[]} buckets */
  constructor(root, buckets) {
    this.root = root;
    this.buckets = new Set(buckets);
    this.incoming = path.join(root, ".incoming");
  }

  async prepare() {
    await fsp.mkdir(this.incoming, { recursive: true });
    for (const bucket of this.buckets)
      for (const folder of ["objects", "data", "uploads"])
        await fsp.mkdir(path.join(this.root, bucket, folder), { recursive: true });
  }

  hasBucket(bucket) {
    return this.buckets.has(bucket);
  }

  /**
   * Receives a request body into a temporary file, hashing it on the way. Rejects (and removes
   * the file) when the request breaks off or brings fewer bytes than it declared.
   * @returns {Promise<{ file: string, size: number, md5: string }>}
   */
  async receive(body, declaredLength) {
    const file = path.join(this.incoming, randomName());
    const md5 = crypto.createHash("md5");
    let size = 0;
    const counting = new Transform({
      transform(chunk, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counting, fs.createWriteStream(file));
      if (size !== declaredLength) throw Object.assign(new Error("short body"), { code: "IncompleteBody" });
    } catch (error) {
      await removeQuietly(file);
      throw error;
    }
    return { file, size, md5: md5.digest("hex") };
  }

  /** Drops a received body that will not be kept. */
  async discard(received) {
    await removeQuietly(received.file);
  }

  objectRecordFile(bucket, key) {
    return path.join(this.root, bucket, "objects", `${hashOf(key)}.json`);
  }

  /** The object's record: { key, size, etag, lastModified, headers, data }; null when there is none. */
  async head(bucket, key) {
    return await readRecord(this.objectRecordFile(bucket, key));
  }

  /**
   * The record and an open handle on the bytes it names (opened before anything can replace
   * them, so a read never meets a file removed by a newer PUT).
   */
  async open(bucket, key) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const record = await this.head(bucket, key);
      if (!record) return null;
      try {
        return { record, handle: await fsp.open(path.join(this.root, bucket, "data", record.data)) };
      } catch (error) {
        // Replaced between reading the record and opening its bytes: read the new record.
        if (error.code !== "ENOENT") throw error;
      }
    }
    return null;
  }

  /** Makes a received file the object's bytes, with its ETag and headers. */
  async putObject(bucket, key, received, etag, headers) {
    const data = randomName();
    await fsp.rename(received.file, path.join(this.root, bucket, "data", data));
    const recordFile = this.objectRecordFile(bucket, key);
    const previous = await readRecord(recordFile);
    const record = { key, size: received.size, etag, lastModified: new Date().toISOString(), headers, data };
    await writeRecord(recordFile, record);
    if (previous) await removeQuietly(path.join(this.root, bucket, "data", previous.data));
    return record;
  }

  async deleteObject(bucket, key) {
    const recordFile = this.objectRecordFile(bucket, key);
    const record = await readRecord(recordFile);
    if (!record) return;
    await removeQuietly(recordFile);
    await removeQuietly(path.join(this.root, bucket, "data", record.data));
  }

  /** Every object's record, in S3's listing order (the keys' UTF-8 bytes). */
  async listObjects(bucket) {
    const folder = path.join(this.root, bucket, "objects");
    const records = [];
    for (const name of await fsp.readdir(folder)) {
      if (!name.endsWith(".json")) continue;
      const record = await readRecord(path.join(folder, name));
      if (record) records.push(record);
    }
    return records.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  }

  uploadFolder(bucket, uploadId) {
    return UPLOAD_ID.test(uploadId ?? "") ? path.join(this.root, bucket, "uploads", uploadId) : null;
  }

  async createUpload(bucket, key, headers) {
    const uploadId = crypto.randomBytes(16).toString("hex");
    const folder = this.uploadFolder(bucket, uploadId);
    await fsp.mkdir(folder);
    await writeRecord(path.join(folder, "upload.json"), {
      key,
      uploadId,
      initiated: new Date().toISOString(),
      headers,
    });
    return uploadId;
  }

  /** The upload's record ({ key, uploadId, initiated, headers }); null when it is not (or no longer) there. */
  async upload(bucket, uploadId) {
    const folder = this.uploadFolder(bucket, uploadId);
    return folder ? await readRecord(path.join(folder, "upload.json")) : null;
  }

  /**
   * Makes a received file part n of the upload, replacing a part sent before only now that this
   * one is whole. False when the upload is gone (aborted or completed meanwhile).
   */
  async putPart(bucket, uploadId, partNumber, received) {
    const folder = this.uploadFolder(bucket, uploadId);
    const data = `part-${partNumber}-${randomName()}`;
    try {
      await fsp.rename(received.file, path.join(folder, data));
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
      await this.discard(received);
      return false;
    }
    const recordFile = path.join(folder, `${partNumber}.json`);
    const previous = await readRecord(recordFile);
    try {
      await writeRecord(recordFile, {
        partNumber,
        size: received.size,
        etag: received.md5,
        lastModified: new Date().toISOString(),
        data,
      });
    } catch (error) {
      if (error.code === "ENOENT") return false;
      throw error;
    }
    if (previous) await removeQuietly(path.join(folder, previous.data));
    return true;
  }

  /** The parts stored so far, by part number; null when the upload is not there. */
  async parts(bucket, uploadId) {
    if (!(await this.upload(bucket, uploadId))) return null;
    const folder = this.uploadFolder(bucket, uploadId);
    const parts = [];
    for (const name of await fsp.readdir(folder).catch(() => [])) {
      if (!/^\d+\.json$/.test(name)) continue;
      const record = await readRecord(path.join(folder, name));
      if (record) parts.push(record);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /** Joins the named parts (already checked) into the object and ends the upload. */
  async completeUpload(bucket, upload, parts, etag) {
    const folder = this.uploadFolder(bucket, upload.uploadId);
    const file = path.join(this.incoming, randomName());
    await pipeline(async function* () {
      for (const part of parts) yield* fs.createReadStream(path.join(folder, part.data));
    }, fs.createWriteStream(file));
    const size = parts.reduce((sum, part) => sum + part.size, 0);
    const record = await this.putObject(bucket, upload.key, { file, size }, etag, upload.headers);
    await removeQuietly(folder);
    return record;
  }

  /** False when there was no such upload. */
  async abortUpload(bucket, uploadId) {
    if (!(await this.upload(bucket, uploadId))) return false;
    await removeQuietly(this.uploadFolder(bucket, uploadId));
    return true;
  }

  /** The uploads begun and neither completed nor aborted, by key and then by start. */
  async listUploads(bucket) {
    const folder = path.join(this.root, bucket, "uploads");
    const uploads = [];
    for (const uploadId of await fsp.readdir(folder)) {
      const upload = await this.upload(bucket, uploadId);
      if (upload) uploads.push(upload);
    }
    return uploads.sort(
      (a, b) =>
        Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) ||
        a.initiated.localeCompare(b.initiated) ||
        a.uploadId.localeCompare(b.uploadId),
    );
  }
}
