import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { fileStore } from "~/server/files/store.server";
import { mediaFile } from "~/server/media/library.server";
import { positiveId } from "~/lib/rules/params";
import { notFound } from "~/server/http/not-found.server";

/**
 * A content item's file for admins (the player, previews, 新しいタブで開く), with Range
 * so the player can seek. Stored names are never reused, so the browser may keep it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contestId = positiveId(params.id);
  const mediaId = positiveId(params.mediaId);
  const media = contestId && mediaId ? mediaFile(contestId, mediaId) : null;
  if (!media) notFound();
  return (await fileStore()).respond(request, media.storedName, {
    contentType: media.contentType,
    cacheControl: "private, max-age=86400",
    audience: "private",
  });
}
