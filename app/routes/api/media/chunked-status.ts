import type { LoaderFunctionArgs } from "@remix-run/node";
import { uploadIdSchema } from "~/lib/media-schemas";
import { apiError, requireMediaApi } from "~/server/media/api.server";
import { uploadStatus } from "~/server/media/uploads.server";

/** GET ?uploadId=…: how far an upload got, so a reloaded page resumes from the server's count. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const contestId = await requireMediaApi(request, params);
  const parsed = uploadIdSchema.safeParse({
    uploadId: new URL(request.url).searchParams.get("uploadId") ?? undefined,
  });
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "uploadId が正しくありません");
  const result = await uploadStatus(contestId, parsed.data.uploadId);
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json(result.upload, { headers: { "Cache-Control": "no-store" } });
}
