import { apiAdmin } from "~/server/auth/tokens/api-access.server";
import { fileStore } from "~/server/files/store.server";
import { jsonApi } from "~/server/http/json-api.server";
import { storefrontAudience } from "~/server/media/public-catalogue.server";
import { thumbnailFile } from "~/server/media/thumbnails.server";
import { positiveId } from "~/lib/rules/params";
import { notFound } from "~/server/http/not-found.server";

/**
 * A media item's thumbnail. Admins see every one; visitors only those of media that are
 * public themselves. The URL carries a version (?v=), so a versioned request caches long.
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contestId = positiveId(params.contestId);
    const mediaId = positiveId(params.mediaId);
    const thumbnail = contestId && mediaId ? thumbnailFile(contestId, mediaId) : null;
    if (!thumbnail) notFound();
    const isAdmin = (await apiAdmin(request)) !== null;
    const audience = isAdmin ? "private" : await storefrontAudience(request, thumbnail.storedName);
    if (!audience) notFound();
    const versioned = new URL(request.url).searchParams.has("v");
    const scope = audience;
    return (await fileStore()).respond(request, thumbnail.thumbnailName, {
      contentType: thumbnail.contentType,
      cacheControl: versioned ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`,
      audience: scope,
    });
  },
});
export const action = loader;
