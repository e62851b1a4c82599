import { newContestSchema } from "~/lib/schemas/contest-schemas";
import { apiAdmin, requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { contestDetails, listContestDetails } from "~/server/catalog/contest-details.server";
import { addContest, listStorefrontContests } from "~/server/catalog/contests.server";
import { jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { nameRefused } from "~/server/catalog/contest-api.server";

/**
 * GET: the spec's contest list, for clients of the shop the contests visible on the storefront,
 * for an admin every contest with its settings. POST: 新規大会追加.
 */
export const loader = jsonApi({
  async GET({ request }) {
    // An unpublished contest only to an admin (second factor done, or an API token).
    if (await apiAdmin(request))
      return apiJson(listContestDetails(), { headers: { "Cache-Control": "private, no-store" } });
    return apiJson(
      listStorefrontContests().map((contest) => ({
        id: contest.id,
        name: contest.name,
        videoPublished: contest.onSale,
        bibNumberLabel: contest.bibNumberLabel,
        coverImage: contest.cover?.src ?? null,
      })),
      // The admin's answer differs: a cache keeps the visitors' apart from it.
      { headers: { "Cache-Control": "public, max-age=30", Vary: "Cookie, Authorization" } },
    );
  },
  /**
   * 新規大会追加: only the name counts. The spec's client also sends date, location and the
   * publication fields, always a new contest's defaults; the server decides as the dialog
   * does (date 未定, unpublished, the default formats and price description).
   */
  async POST({ request }) {
    await requireApiAdmin(request);
    const { name } = await readApiInput(request, newContestSchema);
    const result = addContest(name);
    if (!result.ok) return nameRefused(result);
    return apiJson(contestDetails(result.id), {
      status: 201,
      headers: { Location: `/api/video/contests/${result.id}` },
    });
  },
});
export const action = loader;
