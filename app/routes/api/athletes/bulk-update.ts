import { BULK_DONE } from "~/lib/schemas/athlete-schemas";
import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { bulkUpdateInput, refusalAnswer } from "~/server/catalog/athlete-api.server";
import { applyBulk } from "~/server/catalog/athlete-bulk.server";
import { contestOfSelection } from "~/server/catalog/athletes.server";
import { apiError, jsonApi, readApiBody, apiJson } from "~/server/http/json-api.server";

/**
 * The bulk bar: prices and sales statuses of many athletes at once, or their 削除 / 復元
 * (`isDeleted`). All or nothing, as on the screen: every id must be an athlete of one contest
 * in the right view (active to update or delete, deleted to restore), and a restore that would
 * give two active athletes one number is refused (409) naming them.
 */
export const loader = jsonApi({
  async PATCH({ request }) {
    await requireApiAdmin(request);
    const input = bulkUpdateInput(await readApiBody(request));
    const contestId = contestOfSelection(input.ids);
    if (contestId === null) return apiError(404, "選手が見つかりません");
    const result = applyBulk(contestId, input);
    if (!result.ok) return refusalAnswer(result);
    return apiJson({
      updatedCount: result.count,
      successCount: result.count,
      message: BULK_DONE[input.intent](result.count),
    });
  },
});
export const action = loader;
