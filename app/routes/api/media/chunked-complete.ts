import { uploadIdSchema } from "~/lib/schemas/media-schemas";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import { toContentItem } from "~/server/media/library.server";
import { completeChunkedUpload } from "~/server/media/upload-completion.server";
import { toDeliveryFileJson } from "~/server/delivery/delivery-files.server";
import { adoptDeliveryUpload } from "~/server/delivery/delivery-upload.server";

/** Checks the whole file (size, magic bytes), stores it under the shop's name and answers the new media item (or delivery file). */
export const loader = jsonApi({
  async POST({ request, params }) {
    const contestId = await requireMediaApi(request, params);
    const { uploadId } = await readApiInput(request, uploadIdSchema, { maxBytes: 4 * 1024 });
    const result = await completeChunkedUpload(contestId, uploadId, adoptDeliveryUpload);
    if (!result.ok) return apiError(result.status, result.message);
    if ("deliveryFile" in result) return apiJson(toDeliveryFileJson(result.deliveryFile), { status: 201 });
    return apiJson(toContentItem(result.item), { status: 201 });
  },
});
export const action = loader;
