import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { mediaDir } from "../../helpers/media-dir";
import { COVER_MAX_BYTES, receiveCover } from "~/server/media/cover.server";
import { parseDeliveryForm } from "~/server/orders/admin/delivery-form.server";
import { VIDEO_BYTES_MIN, videoBytes } from "../../helpers/test-videos";

// Small enough to cross in a test, above the real video the tests send; env() reads it on first use.
const MAX_UPLOAD_BYTES = 400_000;
process.env.MAX_UPLOAD_BYTES = String(MAX_UPLOAD_BYTES);

/** A file in mediaDir() other than those that were there before. */
function newFiles(before: Set<string>): string[] {
  return fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).filter((name) => !before.has(name)) : [];
}
const filesNow = () => new Set(fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()) : []);

function post(url: string, form: FormData) {
  return new Request(`http://shop.test${url}`, { method: "POST", body: form });
}

/** A real video of that size (the sample padded), as a form part. */
const mp4 = (size: number, seed: string) => new Blob([new Uint8Array(videoBytes(size, seed))]);

describe("a cover sent through the streaming reader", () => {
  const send = (file: Blob, name: string) => {
    const form = new FormData();
    form.append("cover", file, name);
    return receiveCover(post("/admin/contest/1/cover", form), createContest(`カバー${Math.random()}`));
  };

  it("stores a good image under a name the shop chose", async () => {
    const before = filesNow();
    const png = await sharp({ create: { width: 32, height: 18, channels: 3, background: "#c03" } })
      .png()
      .toBuffer();
    expect(await send(new Blob([png]), "good.png")).toEqual({ ok: true, width: 32, height: 18 });
    expect(newFiles(before).filter((name) => /^cover-[0-9a-f]{24}\.png$/.test(name))).toHaveLength(1);
  });

  it("refuses wrong bytes (400) and an oversized file (413), leaving no file", async () => {
    const before = filesNow();
    expect(await send(new Blob(["GIF89a......"]), "moving.gif")).toEqual({
      ok: false,
      status: 400,
      message: "JPEG・PNG・WebP形式の画像ファイルを選択してください",
    });
    const big = new Uint8Array(COVER_MAX_BYTES + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    expect(await send(new Blob([big]), "huge.jpg")).toEqual({
      ok: false,
      status: 413,
      message: "ファイルが大きすぎます（20 MBまで）",
    });
    expect(newFiles(before)).toEqual([]);
  });

  it("answers a body that is not multipart with 400", async () => {
    const request = new Request("http://shop.test/admin/contest/1/cover", {
      method: "POST",
      body: new URLSearchParams({ cover: "x" }),
    });
    expect(await receiveCover(request, createContest(`カバー${Math.random()}`))).toEqual({
      ok: false,
      status: 400,
      message: "送信内容を読み取れませんでした。もう一度お試しください。",
    });
  });
});

describe("a delivery video sent through the streaming reader", () => {
  const form = (files: [string, Blob][]) => {
    const body = new FormData();
    body.append("orderId", "7");
    body.append("intent", "deliver");
    body.append("url-1", "");
    for (const [name, blob] of files) body.append(name, blob, "video.mp4");
    body.append("file-2", new Blob([]), "");
    return post("/admin/orders", body);
  };

  it("stores a good video per line and keeps the other fields", async () => {
    const before = filesNow();
    const size = VIDEO_BYTES_MIN + 5000;
    const parsed = await parseDeliveryForm(form([["file-1", mp4(size, "good")]]));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.form.get("orderId")).toBe("7");
    expect(parsed.form.get("intent")).toBe("deliver");
    expect([...parsed.files.keys()]).toEqual([1]);
    const stored = parsed.files.get(1)?.storedName ?? "";
    expect(parsed.files.get(1)).toMatchObject({
      originalName: "video.mp4",
      contentType: "video/mp4",
      size,
    });
    expect(stored).toMatch(/^delivery-[0-9a-f]{24}\.mp4$/);
    expect(fs.statSync(path.join(mediaDir(), stored)).size).toBe(size);
    // The empty file input of line 2 leaves nothing behind.
    expect(newFiles(before)).toEqual([stored]);
  });

  it("refuses wrong bytes (400) and an oversized file (413), leaving no file", async () => {
    const before = filesNow();
    expect(
      await parseDeliveryForm(
        form([
          ["file-1", mp4(VIDEO_BYTES_MIN, "before-the-wrong-one")],
          ["file-3", new Blob(["not a video at all"])],
        ]),
      ),
    ).toEqual({
      ok: false,
      status: 400,
      message: "動画ファイル（MP4・MOV・WebM）を選択してください",
    });
    expect(await parseDeliveryForm(form([["file-1", mp4(MAX_UPLOAD_BYTES + 1, "big")]]))).toEqual({
      ok: false,
      status: 413,
      message: "ファイルが大きすぎます",
    });
    expect(newFiles(before)).toEqual([]);
  });

  it("refuses a text field over 64 KiB with 413, as before", async () => {
    const body = new FormData();
    body.append("orderId", "1".repeat(64 * 1024 + 1));
    expect(await parseDeliveryForm(post("/admin/orders", body))).toMatchObject({ ok: false, status: 413 });
  });
});
