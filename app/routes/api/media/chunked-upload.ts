import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, methodNotAllowed, requireMediaApi } from "~/server/media/api.server";
import { receiveChunk } from "~/server/media/uploads.server";

/** One chunk (multipart: uploadId, chunkIndex, chunk), streamed into the upload's file. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const contestId = await requireMediaApi(request, params);
  const result = await receiveChunk(contestId, request);
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json(result.upload);
}
