import { describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { readForm } from "~/server/http/form.server";
import { readJsonBody } from "~/server/http/json-body.server";
import { spoolMultipartForm } from "~/server/files/multipart.server";
import { receiveChunk } from "~/server/media/chunk-receiving.server";
import { receiveFormUpload } from "~/server/media/form-upload.server";
import { readThumbnailForm } from "~/server/media/thumbnails.server";

const MIB = 1024 * 1024;

/**
 * A 200 MiB post as an attacker sends it: Content-Length says so, and the body is there to
 * be read. Counts what the server pulled, so a test can tell whether it read before refusing.
 */
function hugePost(contentType: string, declared = 200 * MIB, withLength = true) {
  let pulled = 0;
  const chunk = new Uint8Array(MIB).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= declared) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const headers = new Headers({ "Content-Type": contentType });
  if (withLength) headers.set("Content-Length", String(declared));
  const request = new Request("http://shop.test/post", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

const MULTIPART = "multipart/form-data; boundary=----x";

describe("oversized bodies", () => {
  it("a form whose Content-Length is over the limit is refused with 413 before its body is read", async () => {
    const post = hugePost("application/x-www-form-urlencoded");
    const thrown = await readForm(post.request).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ init: { status: 413 } });
    expect(post.pulled()).toBeLessThanOrEqual(MIB);
  });

  it("list index bomb: a form naming items[99999] is refused with 400 before conform parses it; real lists pass", async () => {
    const post = (body: string) =>
      new Request("http://shop.test/order-form/x", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
    const thrown = await readForm(post("items%5B99999%5D.athleteId=1&intent=add")).catch(
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({ init: { status: 400 } });
    const fifty = Array.from({ length: 50 }, (_, i) => `items%5B${i}%5D.category=x`).join("&");
    expect((await readForm(post(fifty))).get("items[49].category")).toBe("x");
    expect((await readForm(post("items%5B999%5D.name=x"))).get("items[999].name")).toBe("x");
  });

  it("a JSON body over its declared limit is refused with 413 unread", async () => {
    const post = hugePost("application/json");
    expect(await readJsonBody(post.request, 64 * 1024)).toEqual({ ok: false, status: 413 });
    expect(post.pulled()).toBeLessThanOrEqual(MIB);
  });

  it("spooled multipart forms, media chunks, form uploads and thumbnails refuse a declared oversize unread", async () => {
    const spool = hugePost(MULTIPART);
    const spooled = await spoolMultipartForm(spool.request, {
      directory: path.join(os.tmpdir(), "finding9"),
      isFile: () => true,
      storedName: () => "x.upload",
      maxFileBytes: 20 * MIB,
      maxFieldBytes: 4096,
      maxBodyBytes: 20 * MIB + 64 * 1024,
    });
    expect(spooled).toEqual({ ok: false, reason: "too-large" });
    expect(spool.pulled()).toBeLessThanOrEqual(MIB);

    // A chunk is at most UPLOAD_CHUNK_BYTES (50 MiB by default) plus its multipart framing.
    const chunk = hugePost(MULTIPART);
    expect(await receiveChunk(1, chunk.request)).toMatchObject({ ok: false, status: 413 });
    expect(chunk.pulled()).toBeLessThanOrEqual(MIB);

    const upload = hugePost(MULTIPART, 9 * 1024 * MIB); // over MAX_UPLOAD_BYTES (8 GiB by default)
    expect(await receiveFormUpload(1, upload.request)).toMatchObject({ ok: false, status: 413 });
    expect(upload.pulled()).toBeLessThanOrEqual(MIB);

    const thumbnail = hugePost(MULTIPART, 20 * MIB);
    expect(await readThumbnailForm(thumbnail.request)).toMatchObject({ ok: false, status: 413 });
    expect(thumbnail.pulled()).toBeLessThanOrEqual(MIB);
  });

  it("chunked body: a body without Content-Length is read up to its limit and no further (it was read to its end)", async () => {
    const small = new Request("http://shop.test/post", {
      method: "POST",
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("name=%E5%A4%AA%E9%83%8E"));
          controller.close();
        },
      }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    expect((await readForm(small)).get("name")).toBe("太郎");

    const big = hugePost("application/x-www-form-urlencoded", 4 * MIB, false);
    const thrown = await readForm(big.request).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ init: { status: 413 } });
    // The limit is 64 KiB; what was pulled is the piece that crossed it and the one the stream
    // had ready, never the 4 MiB (the server entry closes the connection behind the 413).
    expect(big.pulled()).toBeLessThanOrEqual(2 * MIB);
  });
});
