import fsp from "node:fs/promises";
import { env } from "../../core/env.server";
import { spoolMultipartForm } from "../../files/multipart.server";
import { CONTENT_TYPES, readHead, sniffVideo } from "../../core/sniff.server";
import type { AttachedVideo } from "../../delivery/order-delivery.server";
import { cleanFileName, newStoredName, removeStoredFiles } from "../../files/storage.server";
import { fileStore } from "../../files/store.server";
import { checkUploadedVideo } from "../../media/probe.server";

export type DeliveryForm =
  | { ok: true; form: FormData; files: Map<number, AttachedVideo> }
  | { ok: false; status: 400 | 413; message: string };

/**
 * The 納品 form with attached videos: each `file-{lineId}` part is streamed to this server's
 * disk under a name the shop chooses (never held whole in memory), checked by its magic bytes
 * and by ffprobe, then stored. Other fields are small and kept in memory.
 */
export async function parseDeliveryForm(request: Request): Promise<DeliveryForm> {
  const store = await fileStore();
  const spooled = await spoolMultipartForm(request, {
    directory: store.scratchDir(),
    isFile: (part) => /^file-\d+$/.test(part.name),
    storedName: () => newStoredName("delivery", "upload"),
    maxFileBytes: env().MAX_UPLOAD_BYTES,
    maxFieldBytes: 64 * 1024,
  });
  if (!spooled.ok) {
    if (spooled.reason === "no-room") return { ok: false, status: 413, message: spooled.refusal.message };
    if (spooled.reason === "too-large") return { ok: false, status: 413, message: "ファイルが大きすぎます" };
    return { ok: false, status: 400, message: "送信内容を読み取れませんでした。もう一度お試しください。" };
  }
  const discard = () => Promise.all(spooled.files.map((file) => fsp.rm(file.path, { force: true })));
  const files = new Map<number, AttachedVideo>();
  /** One refused video refuses the form: nothing of it is kept. */
  const refuse = async (message: string): Promise<DeliveryForm> => {
    await discard();
    await removeStoredFiles(...[...files.values()].map((stored) => stored.storedName));
    return { ok: false, status: 400, message };
  };
  for (const file of spooled.files) {
    const lineId = Number(/^file-(\d+)$/.exec(file.field)?.[1]);
    // An empty file input (no video chosen for this line) sends an empty part.
    if (file.size === 0 || files.has(lineId)) {
      await fsp.rm(file.path, { force: true });
      continue;
    }
    const kind = sniffVideo(readHead(file.path));
    if (!kind) return refuse("動画ファイル（MP4・MOV・WebM）を選択してください");
    // The first bytes say what a file claims to be; ffprobe reads, as that kind, whether it is a
    // video that plays.
    const checked = await checkUploadedVideo({ source: file.path, kind }, cleanFileName(file.fileName));
    if (!checked.ok) return refuse(checked.message);
    const { video } = checked;
    const storedName = file.storedName.replace(/\.upload$/, `.${kind}`);
    await store.putFile(storedName, file.path, CONTENT_TYPES[kind], "private");
    files.set(lineId, {
      storedName,
      originalName: cleanFileName(file.fileName),
      contentType: CONTENT_TYPES[kind],
      size: file.size,
      video,
    });
  }
  return { ok: true, form: spooled.fields, files };
}
