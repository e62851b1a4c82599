import type { ActionFunctionArgs } from "@remix-run/node";
import { uploadIdSchema } from "~/lib/media-schemas";
import { readJsonBody } from "~/server/http/json-body.server";
import { apiError, methodNotAllowed, requireMediaApi } from "~/server/media/api.server";
import { toContentItem } from "~/server/media/library.server";
import { completeChunkedUpload } from "~/server/media/uploads.server";
import { toDeliveryFileJson } from "~/server/delivery/delivery-files.server";

/** Checks the whole file (size, magic bytes), stores it under the shop's name and answers the new media item (or delivery file). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const contestId = await requireMediaApi(request, params);
  const body = await readJsonBody(request, 4 * 1024);
  if (!body.ok) return apiError(body.status, "送信内容を読み取れませんでした");
  const parsed = uploadIdSchema.safeParse(body.value);
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "uploadId が正しくありません");
  const result = await completeChunkedUpload(contestId, parsed.data.uploadId);
  if (!result.ok) return apiError(result.status, result.message);
  if ("deliveryFile" in result)
    return Response.json(toDeliveryFileJson(result.deliveryFile), { status: 201 });
  return Response.json(toContentItem(result.item), { status: 201 });
}
