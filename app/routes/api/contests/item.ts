import { patchContest, requireApiContest } from "~/server/catalog/contest-api.server";
import { contestDetails } from "~/server/catalog/contest-details.server";
import { deleteContest } from "~/server/media/contest-deletion.server";
import { apiError, jsonApi, readApiBody, apiJson } from "~/server/http/json-api.server";

/**
 * One contest, with every setting. PATCH takes the spec's field sets by the 大会設定 tab's and
 * the list's rules (contest-api.server.ts); DELETE is 大会管理's 削除: the contest with its
 * athletes, categories, formats and media, its orders kept.
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contest = await requireApiContest(request, params);
    return apiJson(contestDetails(contest.id));
  },
  async PATCH({ request, params }) {
    const contest = await requireApiContest(request, params);
    patchContest(contest, await readApiBody(request));
    const updated = contestDetails(contest.id);
    // Deleted meanwhile by another admin.
    if (!updated) return apiError(404, `大会が見つかりません (${contest.id})`);
    return apiJson(updated);
  },
  async DELETE({ request, params }) {
    const contest = await requireApiContest(request, params);
    if (!(await deleteContest(contest.id))) return apiError(404, `大会が見つかりません (${contest.id})`);
    return apiJson({ deleted: contest.id, name: contest.name, message: "大会が削除されました。" });
  },
});
export const action = loader;
