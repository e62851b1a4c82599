import { requireApiAdmin } from "../auth/api-access.server";
import { findContest } from "../catalog/contest-list.server";
import { apiError } from "../http/json-api.server";
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
