import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { MultipartError, multipartBoundary, readMultipart, textField, type PartSink } from "~/server/files/multipart.server";

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
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary: multipartBoundary(request.headers.get("Content-Type"))! };
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
  const payload = Buffer.concat([crypto.randomBytes(70_000), Buffer.from("\r\n--\r\n----\r\n"), crypto.randomBytes(5000)]);

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
    const body = '--"x y"\r\nContent-Disposition: form-data; name="file"; filename=""\r\n\r\n\r\n--"x y"--\r\n';
    expect(multipartBoundary('multipart/form-data; boundary="x y"')).toBe("x y");
    const raw = body.replaceAll('"x y"', "x y");
    const { files } = await collect(pieces(new TextEncoder().encode(raw), [5]), "x y");
    expect(files.file?.bytes.length).toBe(0);
  });

  it("refuses a truncated body, a body without the boundary, and a field over its limit", async () => {
    const form = new FormData();
    form.append("chunk", new Blob([new Uint8Array(payload)]), "blob");
    const { bytes, boundary } = await encode(form);
    await expect(collect(pieces(bytes.slice(0, bytes.length - 40), [4096]), boundary)).rejects.toBeInstanceOf(MultipartError);
    await expect(collect(pieces(new TextEncoder().encode("no multipart here"), [4]), boundary)).rejects.toBeInstanceOf(MultipartError);
    const big = new FormData();
    big.append("uploadId", "x".repeat(2000));
    const encoded = await encode(big);
    await expect(collect(pieces(encoded.bytes, [100]), encoded.boundary)).rejects.toBeInstanceOf(MultipartError);
  });

  it("turns a body that breaks off into a MultipartError (a lost connection is bad input, not a 500)", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("--b\r\nContent-Disposition: form-data; name=\"chunk\"; filename=\"blob\"\r\n\r\nabc"));
        controller.error(new Error("socket hang up"));
      },
    });
    await expect(collect(broken, "b")).rejects.toBeInstanceOf(MultipartError);
  });
});
