import { requireAdminApi } from "../auth/admin-session.server";
import { findContest } from "../catalog/contest-list.server";
import { positiveId } from "~/lib/params";

/** A JSON error as the media API answers it: a short title and a Japanese message. */
export function apiError(status: number, message: string, title = "エラー"): Response {
  return Response.json({ error: title, message }, { status });
}

/**
 * The media API's guard: an admin (401 JSON otherwise), and a contest that exists (404).
 * Returns the contest id.
 */
export async function requireMediaApi(request: Request, params: { id?: string }): Promise<number> {
  await requireAdminApi(request);
  const id = positiveId(params.id);
  if (!id || !findContest(id)) throw apiError(404, `大会が見つかりません (${params.id ?? ""})`);
  return id;
}

/** Refuses methods a route does not answer, with 405 and the ones it does. */
export function methodNotAllowed(allowed: string[]): Response {
  return new Response(null, { status: 405, headers: { Allow: allowed.join(", ") } });
}
