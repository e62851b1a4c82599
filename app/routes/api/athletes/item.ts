import { athleteRowSchema, IS_DELETED_ALONE, isDeletedField } from "~/lib/schemas/athlete-schemas";
import { positiveId } from "~/lib/rules/params";
import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { athleteAnswer, refusalAnswer } from "~/server/catalog/athlete-api.server";
import { applySingle } from "~/server/catalog/athlete-bulk.server";
import { updateAthlete } from "~/server/catalog/athlete-edits.server";
import { findAthlete } from "~/server/catalog/athletes.server";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";

function athleteOf(params: { id?: string }) {
  const id = positiveId(params.id);
  const athlete = id ? findAthlete(id) : null;
  if (!athlete) throw apiError(404, "選手が見つかりません");
  return athlete;
}

/** The athlete as it now is. */
function answerFresh(id: number): Response {
  const athlete = findAthlete(id);
  return athlete ? apiJson(athleteAnswer(athlete)) : apiError(404, "選手が見つかりません");
}

/**
 * One athlete. PATCH changes the fields sent and keeps the rest, then saves the row as the row
 * edit does (its schema, its rules: a number no other active athlete of the contest has, a
 * category of the contest); `isDeleted` alone deletes or restores it as the row's buttons do.
 * DELETE is the row's 削除 (a soft delete: restorable from 削除済み).
 */
export const loader = jsonApi({
  async PATCH({ request, params }) {
    await requireApiAdmin(request);
    const current = athleteOf(params);
    const { isDeleted, ...changes } = await readApiBody(request);
    if (isDeleted !== undefined) {
      const flag = parseApiInput(isDeletedField, isDeleted, { "": "isDeleted" });
      if (Object.keys(changes).length > 0)
        return apiError(422, IS_DELETED_ALONE, { fields: { isDeleted: [IS_DELETED_ALONE] } });
      const result = applySingle(current.contestId, flag ? "delete" : "restore", current.id);
      return result.ok ? answerFresh(current.id) : refusalAnswer(result);
    }
    // The row as it is, with the fields sent written over it; the id is the address's.
    const input = parseApiInput(athleteRowSchema, {
      athleteNumber: current.athleteNumber,
      name: current.name,
      category: current.category,
      verticalVideoPrice: current.verticalVideoPrice ?? undefined,
      horizontalVideoPrice: current.horizontalVideoPrice ?? undefined,
      videoStatus: current.videoStatus,
      photoStatus: current.photoStatus,
      ...changes,
      id: current.id,
    });
    const result = updateAthlete(current.contestId, input);
    return result.ok ? answerFresh(current.id) : refusalAnswer(result);
  },
  async DELETE({ request, params }) {
    await requireApiAdmin(request);
    const current = athleteOf(params);
    const result = applySingle(current.contestId, "delete", current.id);
    return result.ok ? answerFresh(current.id) : refusalAnswer(result);
  },
});
export const action = loader;
