import { newAthleteSchema } from "~/lib/schemas/athlete-schemas";
import { positiveId } from "~/lib/rules/params";
import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { athleteAnswer, refusalAnswer } from "~/server/catalog/athlete-api.server";
import { createAthlete } from "~/server/catalog/athlete-edits.server";
import { contestAthletes } from "~/server/catalog/athletes.server";
import { findContest } from "~/server/catalog/contest-list.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";

/** The contest of the address, or a 404 thrown. */
function contestOf(params: { id?: string }) {
  const id = positiveId(params.id);
  const contest = id ? findContest(id) : null;
  if (!contest) throw apiError(404, "大会が見つかりません");
  return contest;
}

/**
 * A contest's athletes (選手管理): the list, in number order (`?includeDeleted=true` adds the
 * deleted ones, which the screen shows on its 削除済み tab), and adding one athlete with its
 * fields under the row edit's rules.
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    await requireApiAdmin(request);
    const contest = contestOf(params);
    const includeDeleted = new URL(request.url).searchParams.get("includeDeleted") === "true";
    return apiJson(contestAthletes(contest.id, { includeDeleted }).map(athleteAnswer), {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
  async POST({ request, params }) {
    await requireApiAdmin(request);
    const contest = contestOf(params);
    const input = await readApiInput(request, newAthleteSchema);
    const result = createAthlete(contest.id, input);
    if (!result.ok) return refusalAnswer(result);
    return apiJson(athleteAnswer(result.athlete), { status: 201 });
  },
});
export const action = loader;
