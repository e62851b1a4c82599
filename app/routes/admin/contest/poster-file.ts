import type { LoaderFunctionArgs } from "@remix-run/node";
import { positiveId } from "~/lib/rules/params";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { fileStore, isStoredName } from "~/server/files/store.server";
import { notFound } from "~/server/http/not-found.server";
import { contestPoster } from "~/server/media/video-states.server";

/**
 * The poster of one of the contest's videos (a sample's or a delivery file's) for its admins, on
 * 納品ファイル and コンテンツ管理. Served private, as the delivery file it shows a frame of; the
 * stored name changes with every poster made, so the admin's browser may keep it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contestId = positiveId(params.id);
  const name = params.name ?? "";
  const poster = contestId && isStoredName(name) ? contestPoster(contestId, name) : null;
  if (!poster) notFound();
  return (await fileStore()).respond(request, poster, {
    contentType: "image/jpeg",
    cacheControl: "private, max-age=31536000, immutable",
    audience: "private",
  });
}
