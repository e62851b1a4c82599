import type { LoaderFunctionArgs } from "@remix-run/node";
import { currentAdmin } from "~/server/auth/admin-session.server";
import { fileResponse } from "~/server/files/file-response.server";
import { isPubliclyServable } from "~/server/media/public-catalogue.server";
import { thumbnailFile } from "~/server/media/library.server";

/**
 * A media item's thumbnail. Admins see every one; visitors only those of media that are
 * public themselves. The URL carries a version (?v=), so a versioned request caches long.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const contestId = Number(params.contestId);
  const mediaId = Number(params.mediaId);
  if (!Number.isSafeInteger(contestId) || !Number.isSafeInteger(mediaId)) throw new Response("Not Found", { status: 404 });
  const thumbnail = thumbnailFile(contestId, mediaId);
  if (!thumbnail) throw new Response("Not Found", { status: 404 });
  const isAdmin = Boolean(await currentAdmin(request));
  if (!isAdmin && !isPubliclyServable(thumbnail.storedName)) throw new Response("Not Found", { status: 404 });
  const versioned = new URL(request.url).searchParams.has("v");
  const scope = isAdmin ? "private" : "public";
  return fileResponse(request, thumbnail.file, { contentType: thumbnail.contentType, cacheControl: versioned ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache` });
}
