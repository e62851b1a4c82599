import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MultipartError,
  multipartBoundary,
  PartTooLargeError,
  readMultipart,
  spoolMultipartForm,
  textField,
  type PartSink,
} from "~/server/files/multipart.server";

/** A body delivered in pieces of the given sizes (cycled), as a slow network would. */
function pieces(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function encode(form: FormData) {
  const request = new Request("http://x/", { method: "POST", body: form });
  return {
    bytes: new Uint8Array(await request.arrayBuffer()),
    boundary: multipartBoundary(request.headers.get("Content-Type"))!,
  };
}

async function collect(body: ReadableStream<Uint8Array>, boundary: string) {
  const fields: Record<string, string> = {};
  const files: Record<string, { name: string | null; bytes: Buffer }> = {};
  await readMultipart(body, boundary, (part): PartSink => {
    if (part.filename === null) return textField(1024, (value) => (fields[part.name] = value));
    const chunks: Buffer[] = [];
    return {
      async write(bytes) {
        chunks.push(Buffer.from(bytes));
      },
      async end() {
        files[part.name] = { name: part.filename, bytes: Buffer.concat(chunks) };
      },
    };
  });
  return { fields, files };
}

describe("streaming multipart reader", () => {
  // Bytes that contain CRLF and dashes, so a careless search would cut the file short.
  const payload = Buffer.concat([
    crypto.randomBytes(70_000),
    Buffer.from("\r\n--\r\n----\r\n"),
    crypto.randomBytes(5000),
  ]);

  for (const sizes of [[1], [3, 7, 64], [65_536], [1_000_000]]) {
    it(`reads fields and a file delivered in pieces of ${sizes.join("/")} bytes`, async () => {
      const form = new FormData();
      form.append("uploadId", "abc");
      form.append("chunkIndex", "12");
      form.append("chunk", new Blob([new Uint8Array(payload)]), "blob");
      form.append("after", "末尾のフィールド");
      const { bytes, boundary } = await encode(form);
      const { fields, files } = await collect(pieces(bytes, sizes), boundary);
      expect(fields).toEqual({ uploadId: "abc", chunkIndex: "12", after: "末尾のフィールド" });
      expect(files.chunk?.name).toBe("blob");
      expect(files.chunk?.bytes.equals(payload)).toBe(true);
    });
  }

  it("reads an empty file part and a quoted boundary", async () => {
    const body =
      '--"x y"\r\nContent-Disposition: form-data; name="file"; filename=""\r\n\r\n\r\n--"x y"--\r\n';
    expect(multipartBoundary('multipart/form-data; boundary="x y"')).toBe("x y");
    const raw = body.replaceAll('"x y"', "x y");
    const { files } = await collect(pieces(new TextEncoder().encode(raw), [5]), "x y");
    expect(files.file?.bytes.length).toBe(0);
  });

  it("refuses a truncated body, a body without the boundary, and a field over its limit", async () => {
    const form = new FormData();
    form.append("chunk", new Blob([new Uint8Array(payload)]), "blob");
    const { bytes, boundary } = await encode(form);
    await expect(collect(pieces(bytes.slice(0, bytes.length - 40), [4096]), boundary)).rejects.toBeInstanceOf(
      MultipartError,
    );
    await expect(
      collect(pieces(new TextEncoder().encode("no multipart here"), [4]), boundary),
    ).rejects.toBeInstanceOf(MultipartError);
    const big = new FormData();
    big.append("uploadId", "x".repeat(2000));
    const encoded = await encode(big);
    await expect(collect(pieces(encoded.bytes, [100]), encoded.boundary)).rejects.toBeInstanceOf(
      PartTooLargeError,
    );
  });

  it("turns a body that breaks off into a MultipartError (a lost connection is bad input, not a 500)", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            '--b\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\n\r\nabc',
          ),
        );
        controller.error(new Error("socket hang up"));
      },
    });
    await expect(collect(broken, "b")).rejects.toBeInstanceOf(MultipartError);
  });
});

describe("a form spooled to disk", () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "spool-"));
  let n = 0;
  const spool = (body: ReadableStream<Uint8Array> | FormData, contentType?: string) =>
    spoolMultipartForm(
      body instanceof FormData
        ? new Request("http://x/", { method: "POST", body })
        : new Request("http://x/", {
            method: "POST",
            body,
            headers: { "Content-Type": contentType ?? "" },
            duplex: "half",
          } as RequestInit),
      {
        directory,
        isFile: (part) => part.name === "file",
        storedName: () => `part-${++n}.upload`,
        maxFileBytes: 1000,
        maxFieldBytes: 10,
      },
    );

  it("streams the chosen file parts to disk and keeps the rest as fields", async () => {
    const form = new FormData();
    form.append("note", "メモ");
    form.append("file", new Blob([new Uint8Array(1000).fill(7)]), "a.bin");
    form.append("other", new Blob(["tiny"]), "b.bin");
    const result = await spool(form);
    if (!result.ok) throw new Error(result.reason);
    expect(result.fields.get("note")).toBe("メモ");
    expect(result.fields.get("other")).toBe("tiny");
    expect(result.files.map(({ field, fileName, size }) => ({ field, fileName, size }))).toEqual([
      { field: "file", fileName: "a.bin", size: 1000 },
    ]);
    expect(fs.readFileSync(result.files[0]!.path).equals(Buffer.alloc(1000, 7))).toBe(true);
  });

  it("is too large past a limit, stops reading at four times it, and leaves no file", async () => {
    const before = fs.readdirSync(directory).length;
    const over = new FormData();
    over.append("file", new Blob([new Uint8Array(1001)]), "a.bin");
    expect(await spool(over)).toEqual({ ok: false, reason: "too-large" });
    const field = new FormData();
    field.append("note", "x".repeat(11));
    expect(await spool(field)).toEqual({ ok: false, reason: "too-large" });
    // A client that never stops sending: the reader gives up instead of reading for ever.
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece =
          sent === 0
            ? new TextEncoder().encode(
                '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n',
              )
            : new Uint8Array(500);
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    expect(await spool(endless, "multipart/form-data; boundary=b")).toEqual({
      ok: false,
      reason: "too-large",
    });
    expect(sent).toBeLessThan(10_000);
    expect(fs.readdirSync(directory).length).toBe(before);
  });

  it("reads an over-long field's body to its end before refusing it (an answer sent mid-body resets the connection)", async () => {
    const pieces = [
      '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\n',
      ...Array.from({ length: 20 }, () => "x".repeat(10_000)),
      "\r\n--b--\r\n",
    ].map((text) => new TextEncoder().encode(text));
    let cancelled = false;
    let left = pieces.length;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces[pieces.length - left--];
        if (piece) controller.enqueue(piece);
        else controller.close();
      },
      cancel: () => void (cancelled = true),
    });
    expect(await spool(body, "multipart/form-data; boundary=b")).toEqual({ ok: false, reason: "too-large" });
    expect(cancelled).toBe(false);
    expect(left).toBeLessThanOrEqual(0);
  });

  it("cannot read a body that is not multipart or breaks off", async () => {
    expect(
      await spool(new ReadableStream({ start: (c) => c.close() }), "application/x-www-form-urlencoded"),
    ).toEqual({ ok: false, reason: "unreadable" });
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
          ),
        );
        controller.close();
      },
    });
    const before = fs.readdirSync(directory).length;
    expect(await spool(cut, "multipart/form-data; boundary=b")).toEqual({ ok: false, reason: "unreadable" });
    expect(fs.readdirSync(directory).length).toBe(before);
  });
});
