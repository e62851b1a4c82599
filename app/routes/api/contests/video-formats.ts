import { formatAddSchema } from "~/lib/schemas/contest-settings-schemas";
import { nameRefused, requireApiContest } from "~/server/catalog/contest-api.server";
import { addFormat, listFormats } from "~/server/catalog/contest-settings.server";
import { jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";

/**
 * A contest's video formats in their order (the first is priced as 縦, the second as 横). The
 * spec's POST also sends contestId and displayOrder: the contest is the path's, and a new
 * format goes last, as on the screen (PUT moves it).
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contest = await requireApiContest(request, params);
    return apiJson(listFormats(contest.id));
  },
  async POST({ request, params }) {
    const contest = await requireApiContest(request, params);
    const { name } = await readApiInput(request, formatAddSchema, { add: { intent: "format-add" } });
    const result = addFormat(contest.id, name);
    if (!result.ok) return nameRefused(result);
    // Names are unique within a contest (addFormat's rule), so the name finds the new one.
    const created = listFormats(contest.id).find((format) => format.name === name);
    return apiJson(created, { status: 201 });
  },
});
export const action = loader;
