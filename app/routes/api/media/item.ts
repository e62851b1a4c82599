import type { ActionFunctionArgs } from "@remix-run/node";
import { mediaOrderSchema } from "~/lib/media-schemas";
import { readJsonBody } from "~/server/http/json-body.server";
import { apiError, methodNotAllowed, requireMediaApi } from "~/server/media/api.server";
import { deleteMedia, findContentMedia, listContentMedia, moveMedia } from "~/server/media/library.server";
import { positiveId } from "~/lib/params";

/** DELETE: the item and its files. PATCH {displayOrder}: swap with the item at that position. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE" && request.method !== "PATCH") return methodNotAllowed(["PATCH", "DELETE"]);
  const contestId = await requireMediaApi(request, params);
  const mediaId = positiveId(params.mediaId);
  if (!mediaId || !findContentMedia(contestId, mediaId)) return apiError(404, "メディアが見つかりません");
  if (request.method === "DELETE") {
    await deleteMedia(contestId, mediaId);
    return Response.json({ deleted: mediaId });
  }
  const body = await readJsonBody(request, 4 * 1024);
  if (!body.ok) return apiError(body.status, "送信内容を読み取れませんでした");
  const parsed = mediaOrderSchema.safeParse(body.value);
  if (!parsed.success)
    return apiError(400, parsed.error.issues[0]?.message ?? "displayOrder が正しくありません");
  moveMedia(contestId, mediaId, parsed.data.displayOrder);
  return Response.json({ media: listContentMedia(contestId) });
}
