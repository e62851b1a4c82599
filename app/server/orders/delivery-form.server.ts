import fs from "node:fs";
import path from "node:path";
import {
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createFileUploadHandler as createFileUploadHandler,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type NodeOnDiskFile,
} from "@remix-run/node";
import { env } from "../core/env.server";
import { mediaDir, newStoredName } from "../files/storage.server";

/** What a file's first bytes say it is; the name and the browser's content type are not trusted. */
export function sniffVideo(head: Uint8Array): "mp4" | "mov" | "webm" | null {
  if (head.length >= 12 && String.fromCharCode(...head.subarray(4, 8)) === "ftyp") {
    return String.fromCharCode(...head.subarray(8, 10)) === "qt" ? "mov" : "mp4";
  }
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  return null;
}

export type DeliveryForm = { ok: true; form: FormData; files: Map<number, string> } | { ok: false; status: 400 | 413; message: string };

/**
 * The 納品 form with attached videos: each `file-{lineId}` part is streamed to disk
 * under a name the shop chooses (never held whole in memory), then checked by its magic
 * bytes. Other fields are small and kept in memory.
 */
export async function parseDeliveryForm(request: Request): Promise<DeliveryForm> {
  const written: string[] = [];
  const fileHandler = createFileUploadHandler({
    directory: mediaDir(),
    avoidFileConflicts: false,
    maxPartSize: env().MAX_UPLOAD_BYTES,
    filter: ({ name, filename }) => /^file-\d+$/.test(name) && Boolean(filename),
    file: () => {
      const name = newStoredName("delivery", "upload");
      written.push(name);
      return name;
    },
  });
  let form: FormData;
  try {
    fs.mkdirSync(mediaDir(), { recursive: true });
    form = await parseMultipartFormData(request, composeUploadHandlers(fileHandler, createMemoryUploadHandler({ maxPartSize: 64 * 1024 })));
  } catch (error) {
    for (const name of written) fs.rmSync(path.join(mediaDir(), name), { force: true });
    if (error instanceof MaxPartSizeExceededError) return { ok: false, status: 413, message: "ファイルが大きすぎます" };
    return { ok: false, status: 400, message: "送信内容を読み取れませんでした。もう一度お試しください。" };
  }
  const files = new Map<number, string>();
  for (const [name, value] of form) {
    const match = /^file-(\d+)$/.exec(name);
    if (!match || typeof value === "string" || value.size === 0) continue;
    const onDisk = value as unknown as NodeOnDiskFile;
    const source = onDisk.getFilePath();
    const handle = fs.openSync(source, "r");
    const head = Buffer.alloc(12);
    fs.readSync(handle, head, 0, 12, 0);
    fs.closeSync(handle);
    const kind = sniffVideo(head);
    if (!kind) {
      for (const stored of written) fs.rmSync(path.join(mediaDir(), stored), { force: true });
      return { ok: false, status: 400, message: "動画ファイル（MP4・MOV・WebM）を選択してください" };
    }
    const storedName = path.basename(source).replace(/\.upload$/, `.${kind}`);
    fs.renameSync(source, path.join(mediaDir(), storedName));
    files.set(Number(match[1]), storedName);
  }
  return { ok: true, form, files };
}
