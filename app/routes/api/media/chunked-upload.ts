import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import { receiveChunk } from "~/server/media/chunk-receiving.server";

/** One chunk (multipart: uploadId, chunkIndex, chunk), streamed into the upload's file. */
export const loader = jsonApi({
  async POST({ request, params }) {
    const contestId = await requireMediaApi(request, params);
    const result = await receiveChunk(contestId, request);
    if (!result.ok) return apiError(result.status, result.message);
    return apiJson(result.upload);
  },
});
export const action = loader;
