import { categoryAddSchema } from "~/lib/schemas/contest-settings-schemas";
import { nameRefused, requireApiContest } from "~/server/catalog/contest-api.server";
import { addCategory, listCategories } from "~/server/catalog/contest-settings.server";
import { jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";

/**
 * A contest's categories (部門), as 大会設定 lists and adds them. The spec's POST also sends
 * contestId and color: the contest is the path's, and the colour is the server's choice, the
 * first of the palette not in use, as on the screen.
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contest = await requireApiContest(request, params);
    return apiJson(listCategories(contest.id));
  },
  async POST({ request, params }) {
    const contest = await requireApiContest(request, params);
    const { name } = await readApiInput(request, categoryAddSchema, { add: { intent: "category-add" } });
    const result = addCategory(contest.id, name);
    if (!result.ok) return nameRefused(result);
    // Names are unique within a contest (addCategory's rule), so the name finds the new one.
    const created = listCategories(contest.id).find((category) => category.name === name);
    return apiJson(created, { status: 201 });
  },
});
export const action = loader;
