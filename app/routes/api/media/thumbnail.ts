import fs from "node:fs";
import type { ActionFunctionArgs } from "@remix-run/node";
import { thumbnailJsonSchema } from "~/lib/media-schemas";
import { readJsonBody } from "~/server/http/json-body.server";
import { apiError, methodNotAllowed, requireMediaApi } from "~/server/media/api.server";
import {
  decodeDataUrl,
  findContentMedia,
  MAX_THUMBNAIL_BYTES,
  readThumbnailForm,
  removeThumbnail,
  setThumbnail,
} from "~/server/media/library.server";
import { positiveId } from "~/lib/params";

/**
 * POST: attach a 1080×1080 thumbnail, sent as the spec does (JSON with a base64 data URL)
 * or as a multipart `thumbnail` file. DELETE: remove it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(["POST", "DELETE"]);
  const contestId = await requireMediaApi(request, params);
  const mediaId = positiveId(params.mediaId);
  if (!mediaId || !findContentMedia(contestId, mediaId)) return apiError(404, "メディアが見つかりません");
  if (request.method === "DELETE") {
    await removeThumbnail(contestId, mediaId);
    return Response.json({ thumbnailUrl: null });
  }
  let image: Buffer | string;
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const form = await readThumbnailForm(request);
    if (!form.ok) return apiError(form.status, form.message, form.title);
    if (!form.file) return apiError(400, "画像ファイルを選択してください");
    image = form.file;
  } else {
    // base64 is 4/3 of the bytes, plus the JSON around it.
    const body = await readJsonBody(request, Math.ceil((MAX_THUMBNAIL_BYTES * 4) / 3) + 4096);
    if (!body.ok)
      return apiError(
        body.status,
        body.status === 413 ? "画像が大きすぎます（10 MB まで）" : "送信内容を読み取れませんでした",
      );
    const parsed = thumbnailJsonSchema.safeParse(body.value);
    if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "画像データがありません");
    const bytes = decodeDataUrl(parsed.data.data);
    if (bytes === "too-big") return apiError(413, "画像が大きすぎます（10 MB まで）");
    if (!bytes) return apiError(400, "画像データ（data URL）の形式が正しくありません");
    image = bytes;
  }
  const result = await setThumbnail(contestId, mediaId, image);
  if (typeof image === "string") fs.rmSync(image, { force: true });
  if (!result.ok) return apiError(result.status, result.message, result.title);
  return Response.json({ thumbnailUrl: result.thumbnailUrl });
}
