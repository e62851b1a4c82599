import fs from "node:fs";
import { thumbnailJsonSchema } from "~/lib/schemas/media-schemas";
import {
  apiError,
  jsonApi,
  parseApiInput,
  readApiBody,
  type ApiArgs,
  apiJson,
} from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import {
  decodeDataUrl,
  findContentMedia,
  MAX_THUMBNAIL_BYTES,
  readThumbnailForm,
  removeThumbnail,
  setThumbnail,
} from "~/server/media/library.server";
import { positiveId } from "~/lib/rules/params";

async function mediaOf({ request, params }: ApiArgs) {
  const contestId = await requireMediaApi(request, params);
  const mediaId = positiveId(params.mediaId);
  if (!mediaId || !findContentMedia(contestId, mediaId)) throw apiError(404, "メディアが見つかりません");
  return { contestId, mediaId };
}

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
  const body = await readApiBody(
    request,
    Math.ceil((MAX_THUMBNAIL_BYTES * 4) / 3) + 4096,
    "画像が大きすぎます（10 MB まで）",
  );
  const { data } = parseApiInput(thumbnailJsonSchema, body);
  const bytes = decodeDataUrl(data);
  if (bytes === "too-big") throw apiError(413, "画像が大きすぎます（10 MB まで）");
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
    const { contestId, mediaId } = await mediaOf(args);
    const image = await postedImage(args.request);
    const result = await setThumbnail(contestId, mediaId, image);
    if (typeof image === "string") fs.rmSync(image, { force: true });
    if (!result.ok) return apiError(result.status, result.message, { title: result.title });
    return apiJson({ thumbnailUrl: result.thumbnailUrl });
  },
  async DELETE(args) {
    const { contestId, mediaId } = await mediaOf(args);
    await removeThumbnail(contestId, mediaId);
    return apiJson({ thumbnailUrl: null });
  },
});
export const action = loader;
