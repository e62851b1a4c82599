import type { ActionFunctionArgs } from "@remix-run/node";
import { chunkedInitSchema } from "~/lib/media-schemas";
import { readJsonBody } from "~/server/http/json-body.server";
import { apiError, methodNotAllowed, requireMediaApi } from "~/server/media/api.server";
import { initChunkedUpload } from "~/server/media/uploads.server";

/** Starts (or resumes) a chunked upload: {uploadId, chunkSize, totalChunks, receivedChunks}. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const contestId = await requireMediaApi(request, params);
  const body = await readJsonBody(request, 16 * 1024);
  if (!body.ok) return apiError(body.status, "送信内容を読み取れませんでした");
  const parsed = chunkedInitSchema.safeParse(body.value);
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "入力内容が正しくありません");
  const result = await initChunkedUpload(contestId, parsed.data);
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json(result.upload);
}
