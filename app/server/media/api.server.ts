import { requireApiAdmin } from "../auth/tokens/api-access.server";
import { findContest } from "../catalog/contest-list.server";
import { apiError, type ApiArgs } from "../http/json-api.server";
import { findContentMedia } from "./library.server";
import { positiveId } from "~/lib/rules/params";

/**
 * The media API's guard: an admin (401 JSON otherwise; a read-only API token only reads),
 * and a contest that exists (404). Returns the contest id.
 */
export async function requireMediaApi(request: Request, params: { id?: string }): Promise<number> {
  await requireApiAdmin(request);
  const id = positiveId(params.id);
  if (!id || !findContest(id)) throw apiError(404, `大会が見つかりません (${params.id ?? ""})`);
  return id;
}

/** The guard of a content item's calls (…/media/:mediaId): the contest's, and an item of its content (404). */
export async function requireContentMediaApi({
  request,
  params,
}: ApiArgs): Promise<{ contestId: number; mediaId: number }> {
  const contestId = await requireMediaApi(request, params);
  const mediaId = positiveId(params.mediaId);
  if (!mediaId || !findContentMedia(contestId, mediaId)) throw apiError(404, "メディアが見つかりません");
  return { contestId, mediaId };
}
