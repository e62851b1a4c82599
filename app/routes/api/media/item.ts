import { mediaOrderSchema } from "~/lib/schemas/media-schemas";
import { apiError, jsonApi, readApiInput, type ApiArgs, apiJson } from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import { deleteMedia, findContentMedia, listContentMedia, moveMedia } from "~/server/media/library.server";
import { positiveId } from "~/lib/rules/params";

async function mediaOf({ request, params }: ApiArgs) {
  const contestId = await requireMediaApi(request, params);
  const mediaId = positiveId(params.mediaId);
  if (!mediaId || !findContentMedia(contestId, mediaId)) throw apiError(404, "メディアが見つかりません");
  return { contestId, mediaId };
}

/** DELETE: the item and its files. PATCH {displayOrder}: swap with the item at that position. */
export const loader = jsonApi({
  async DELETE(args) {
    const { contestId, mediaId } = await mediaOf(args);
    await deleteMedia(contestId, mediaId);
    return apiJson({ deleted: mediaId });
  },
  async PATCH(args) {
    const { contestId, mediaId } = await mediaOf(args);
    const { displayOrder } = await readApiInput(args.request, mediaOrderSchema, { maxBytes: 4 * 1024 });
    moveMedia(contestId, mediaId, displayOrder);
    return apiJson({ media: listContentMedia(contestId) });
  },
});
export const action = loader;
