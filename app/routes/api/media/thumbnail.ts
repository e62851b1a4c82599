import { thumbnailJsonSchema } from "~/lib/schemas/media-schemas";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";
import { requireContentMediaApi } from "~/server/media/api.server";
import {
  decodeDataUrl,
  MAX_THUMBNAIL_BYTES,
  readThumbnailForm,
  removeThumbnail,
  setThumbnail,
  THUMBNAIL_TOO_BIG,
} from "~/server/media/thumbnails.server";

/** The image of the POST: a multipart `thumbnail` file (a temporary path), or the spec's JSON base64 data URL. */
async function postedImage(request: Request): Promise<Buffer | string> {
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const form = await readThumbnailForm(request);
    if (!form.ok) throw apiError(form.status, form.message, { title: form.title });
    if (!form.file)
      throw apiError(422, "画像ファイルを選択してください", {
        fields: { thumbnail: ["画像ファイルを選択してください"] },
      });
    return form.file;
  }
  // base64 is 4/3 of the bytes, plus the JSON around it.
  const body = await readApiBody(request, Math.ceil((MAX_THUMBNAIL_BYTES * 4) / 3) + 4096, THUMBNAIL_TOO_BIG);
  const { data } = parseApiInput(thumbnailJsonSchema, body);
  const bytes = decodeDataUrl(data);
  if (bytes === "too-big") throw apiError(413, THUMBNAIL_TOO_BIG);
  if (!bytes)
    throw apiError(422, "画像データ（data URL）の形式が正しくありません", {
      fields: { data: ["画像データ（data URL）の形式が正しくありません"] },
    });
  return bytes;
}

/**
 * POST: attach a 1080×1080 thumbnail, sent as the spec does (JSON with a base64 data URL)
 * or as a multipart `thumbnail` file. DELETE: remove it.
 */
export const loader = jsonApi({
  async POST(args) {
    const { contestId, mediaId } = await requireContentMediaApi(args);
    const image = await postedImage(args.request);
    const result = await setThumbnail(contestId, mediaId, image);
    if (!result.ok) return apiError(result.status, result.message, { title: result.title });
    return apiJson({ thumbnailUrl: result.thumbnailUrl });
  },
  async DELETE(args) {
    const { contestId, mediaId } = await requireContentMediaApi(args);
    await removeThumbnail(contestId, mediaId);
    return apiJson({ thumbnailUrl: null });
  },
});
export const action = loader;
