import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { bulkPurgeIds } from "~/server/catalog/athlete-api.server";
import { purgeAthletes } from "~/server/catalog/athlete-bulk.server";
import { jsonApi, readApiBody, apiJson } from "~/server/http/json-api.server";

/**
 * 完全に削除 of deleted athletes, counted per athlete as the spec's call answers: an id the
 * screen would refuse to purge (unknown, or an athlete not deleted first) counts as failed.
 */
export const loader = jsonApi({
  async POST({ request }) {
    await requireApiAdmin(request);
    const ids = bulkPurgeIds(await readApiBody(request));
    return apiJson(purgeAthletes(ids));
  },
});
export const action = loader;
