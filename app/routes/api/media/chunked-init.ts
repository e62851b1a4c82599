import { chunkedInitSchema } from "~/lib/schemas/media-schemas";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import { initChunkedUpload } from "~/server/media/upload-sessions.server";

/** Starts (or resumes) a chunked upload: {uploadId, chunkSize, totalChunks, receivedChunks}. */
export const loader = jsonApi({
  async POST({ request, params }) {
    const contestId = await requireMediaApi(request, params);
    const input = await readApiInput(request, chunkedInitSchema, { maxBytes: 16 * 1024 });
    const result = await initChunkedUpload(contestId, input);
    if (!result.ok) return apiError(result.status, result.message);
    return apiJson(result.upload);
  },
});
export const action = loader;
