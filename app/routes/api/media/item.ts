import { mediaOrderSchema } from "~/lib/schemas/media-schemas";
import { jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { requireContentMediaApi } from "~/server/media/api.server";
import { deleteMedia, listContentMedia, moveMedia } from "~/server/media/library.server";

/** DELETE: the item and its files. PATCH {displayOrder}: swap with the item at that position. */
export const loader = jsonApi({
  async DELETE(args) {
    const { contestId, mediaId } = await requireContentMediaApi(args);
    await deleteMedia(contestId, mediaId);
    return apiJson({ deleted: mediaId });
  },
  async PATCH(args) {
    const { contestId, mediaId } = await requireContentMediaApi(args);
    const { displayOrder } = await readApiInput(args.request, mediaOrderSchema, { maxBytes: 4 * 1024 });
    moveMedia(contestId, mediaId, displayOrder);
    return apiJson({ media: listContentMedia(contestId) });
  },
});
export const action = loader;
