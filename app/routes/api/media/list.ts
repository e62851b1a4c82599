import { apiAdmin } from "~/server/auth/tokens/api-access.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { listContestMedia, openedContestsOf } from "~/server/media/public-catalogue.server";
import { positiveId } from "~/lib/rules/params";

/** A contest's media: what the storefront shows, or (to an admin) everything. */
export const loader = jsonApi({
  async GET({ request, params }) {
    const id = positiveId(params.id);
    // Unpublished media only to an admin (second factor done, or an API token), as every admin API.
    const isAdmin = (await apiAdmin(request)) !== null;
    // Behind a 合言葉, a contest's media are listed only to a visitor who entered it.
    const opened = isAdmin ? undefined : await openedContestsOf(request);
    const media = id ? listContestMedia(id, { isAdmin, opened }) : null;
    if (!media) return apiError(404, "大会が見つかりません");
    // The admin's list holds unpublished media: not kept past the admin window.
    const cacheControl = isAdmin ? "private, no-store" : "private, max-age=30";
    return apiJson(media, { headers: { "Cache-Control": cacheControl } });
  },
});
export const action = loader;
