import fs from "node:fs";
import path from "node:path";
import { env } from "../core/env.server";
import { spoolMultipartForm } from "../files/multipart.server";
import { CONTENT_TYPES, readHead, sniffVideo } from "../files/sniff.server";
import type { AttachedVideo } from "./delivery.server";
import { cleanFileName, mediaDir, newStoredName } from "../files/storage.server";

export type DeliveryForm =
  | { ok: true; form: FormData; files: Map<number, AttachedVideo> }
  | { ok: false; status: 400 | 413; message: string };

/**
 * The 納品 form with attached videos: each `file-{lineId}` part is streamed to disk
 * under a name the shop chooses (never held whole in memory), then checked by its magic
 * bytes. Other fields are small and kept in memory.
 */
export async function parseDeliveryForm(request: Request): Promise<DeliveryForm> {
  const spooled = await spoolMultipartForm(request, {
    directory: mediaDir(),
    isFile: (part) => /^file-\d+$/.test(part.name),
    storedName: () => newStoredName("delivery", "upload"),
    maxFileBytes: env().MAX_UPLOAD_BYTES,
    maxFieldBytes: 64 * 1024,
  });
  if (!spooled.ok) {
    if (spooled.reason === "too-large") return { ok: false, status: 413, message: "ファイルが大きすぎます" };
    return { ok: false, status: 400, message: "送信内容を読み取れませんでした。もう一度お試しください。" };
  }
  const discard = () => spooled.files.forEach((file) => fs.rmSync(file.path, { force: true }));
  const files = new Map<number, AttachedVideo>();
  for (const file of spooled.files) {
    const lineId = Number(/^file-(\d+)$/.exec(file.field)?.[1]);
    // An empty file input (no video chosen for this line) sends an empty part.
    if (file.size === 0 || files.has(lineId)) {
      fs.rmSync(file.path, { force: true });
      continue;
    }
    const kind = sniffVideo(readHead(file.path));
    if (!kind) {
      discard();
      for (const stored of files.values())
        fs.rmSync(path.join(mediaDir(), stored.storedName), { force: true });
      return { ok: false, status: 400, message: "動画ファイル（MP4・MOV・WebM）を選択してください" };
    }
    const storedName = file.storedName.replace(/\.upload$/, `.${kind}`);
    fs.renameSync(file.path, path.join(mediaDir(), storedName));
    files.set(lineId, {
      storedName,
      originalName: cleanFileName(file.fileName),
      contentType: CONTENT_TYPES[kind],
      size: file.size,
    });
  }
  return { ok: true, form: spooled.fields, files };
}
