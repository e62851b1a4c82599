import { formatBytes } from "~/lib/rules/format";
import { env } from "../core/env.server";
import { NoRoomForUpload } from "../core/out-of-space.server";
import { MultipartError, multipartBoundary, readMultipart, textField } from "../files/multipart.server";
import { openScratchFile, scratchDir, type ScratchFile } from "../files/scratch-file.server";
import { cleanFileName } from "../files/storage.server";
import { refusalForBody } from "../files/upload-room.server";
import { declaredOver, MULTIPART_SLACK_BYTES } from "../http/form.server";
import { contentCategoryOf, storeUploadedFile, type StoredMedia } from "./new-media.server";
import { uploadFailure, type UploadFailure } from "./upload-rows.server";

const NO_FILE = "ファイルを選択してください";

/**
 * The content tab's plain multipart form (JavaScript off): the `file` part is streamed to
 * disk with the same limit, the same magic-byte check and a name the shop chooses, and within
 * the disk's reserve (413 with the figures, as for a file too large).
 */
export async function receiveFormUpload(
  contestId: number,
  request: Request,
): Promise<{ ok: true; item: StoredMedia } | UploadFailure> {
  const limit = env().MAX_UPLOAD_BYTES;
  const tooBig = () => uploadFailure(413, `ファイルが大きすぎます（上限 ${formatBytes(limit)}）`);
  if (declaredOver(request, limit + MULTIPART_SLACK_BYTES)) return tooBig();
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) return uploadFailure(400, NO_FILE);
  const noRoom = await refusalForBody(await scratchDir(), request);
  if (noRoom) return uploadFailure(413, noRoom.message);
  const got: { upload: { scratch: ScratchFile; name: string } | null; category: string } = {
    upload: null,
    category: "sample",
  };
  try {
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name === "category") return textField(32, (value) => (got.category = value.trim()));
      if (part.name !== "file" || got.upload || !part.filename) return null;
      got.upload = { scratch: await openScratchFile("form", "upload", limit), name: part.filename };
      return got.upload.scratch.sink;
    });
  } catch (error) {
    await got.upload?.scratch.discard();
    if (error instanceof MultipartError)
      return uploadFailure(400, "送信内容を読み取れませんでした。もう一度お試しください。");
    if (error instanceof NoRoomForUpload) return uploadFailure(413, error.message);
    throw error;
  }
  if (!got.upload) return uploadFailure(400, NO_FILE);
  const { scratch, name } = got.upload;
  await scratch.handle.close();
  if (scratch.sink.tooBig() || scratch.sink.received() === 0) {
    await scratch.discard();
    return scratch.sink.tooBig() ? tooBig() : uploadFailure(400, NO_FILE);
  }
  return storeUploadedFile(contestId, scratch.file, {
    originalName: cleanFileName(name),
    expectedType: null,
    category: contentCategoryOf(got.category),
  });
}
