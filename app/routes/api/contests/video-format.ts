import { formatOrderSchema, formatRenameSchema } from "~/lib/schemas/contest-settings-schemas";
import { positiveId } from "~/lib/rules/params";
import { nameRefused, requireApiContest } from "~/server/catalog/contest-api.server";
import {
  deleteFormat,
  listFormats,
  placeFormat,
  renameFormat,
} from "~/server/catalog/contest-settings.server";
import {
  apiError,
  jsonApi,
  parseApiInput,
  readApiBody,
  type ApiArgs,
  apiJson,
} from "~/server/http/json-api.server";

async function formatOf({ request, params }: ApiArgs) {
  const contest = await requireApiContest(request, params);
  const formatId = positiveId(params.formatId);
  const format = listFormats(contest.id).find((row) => row.id === formatId);
  // A format of another contest is not found, as on the screen.
  if (!format) throw apiError(404, "動画形式が見つかりません");
  return { contestId: contest.id, formatId: format.id };
}

const NOTHING_TO_CHANGE = "変更する name または displayOrder を指定してください";

/**
 * PUT {name?, displayOrder?}: 大会設定's rename, and a place in the list (0 first; the
 * others keep their order and are renumbered as 上へ / 下へ do). DELETE: the last format
 * cannot go (409), nothing of the contest could be ordered without one.
 */
export const loader = jsonApi({
  async PUT(args) {
    const { contestId, formatId } = await formatOf(args);
    const body = await readApiBody(args.request);
    const rename =
      body.name === undefined
        ? null
        : parseApiInput(formatRenameSchema, { intent: "format-rename", formatId, name: body.name });
    const place =
      body.displayOrder === undefined || body.displayOrder === null
        ? null
        : parseApiInput(formatOrderSchema, { displayOrder: body.displayOrder });
    if (!rename && !place)
      return apiError(422, NOTHING_TO_CHANGE, { fields: { _form: [NOTHING_TO_CHANGE] } });
    if (rename) {
      const result = renameFormat(contestId, formatId, rename.name);
      if (!result.ok) return nameRefused({ field: "name", message: result.message });
    }
    if (place) placeFormat(contestId, formatId, place.displayOrder);
    return apiJson(listFormats(contestId).find((row) => row.id === formatId));
  },
  async DELETE(args) {
    const { contestId, formatId } = await formatOf(args);
    const result = deleteFormat(contestId, formatId);
    if (!result.ok) return apiError(409, result.message);
    return apiJson({ deleted: formatId, message: "動画形式を削除しました。" });
  },
});
export const action = loader;
