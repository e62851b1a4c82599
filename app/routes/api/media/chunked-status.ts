import { uploadIdSchema } from "~/lib/schemas/media-schemas";
import { apiError, jsonApi, parseApiInput, apiJson } from "~/server/http/json-api.server";
import { requireMediaApi } from "~/server/media/api.server";
import { uploadStatus } from "~/server/media/upload-sessions.server";

/** GET ?uploadId=…: how far an upload got, so a reloaded page resumes from the server's count. */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contestId = await requireMediaApi(request, params);
    const { uploadId } = parseApiInput(uploadIdSchema, {
      uploadId: new URL(request.url).searchParams.get("uploadId") ?? undefined,
    });
    const result = await uploadStatus(contestId, uploadId);
    if (!result.ok) return apiError(result.status, result.message);
    return apiJson(result.upload, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
