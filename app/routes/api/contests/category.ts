import { positiveId } from "~/lib/rules/params";
import { requireApiContest } from "~/server/catalog/contest-api.server";
import { deleteCategory } from "~/server/catalog/contest-settings.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";

/**
 * Deletes a category as 大会設定 does: its athletes stay, 未分類 (movedAthletes says how many).
 * A category of another contest is not found.
 */
export const loader = jsonApi({
  async DELETE({ request, params }) {
    const contest = await requireApiContest(request, params);
    const categoryId = positiveId(params.catId);
    const result = categoryId ? deleteCategory(contest.id, categoryId) : null;
    if (!result?.ok) return apiError(404, "部門が見つかりません");
    const moved =
      result.movedAthletes > 0 ? `この部門の選手${result.movedAthletes}人は未分類になりました。` : "";
    return apiJson({
      deleted: categoryId,
      name: result.name,
      movedAthletes: result.movedAthletes,
      message: `部門「${result.name}」を削除しました。${moved}`,
    });
  },
});
export const action = loader;
