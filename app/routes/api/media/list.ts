import type { LoaderFunctionArgs } from "@remix-run/node";
import { listContestMedia } from "~/server/media/public-catalogue.server";
import { currentAdmin } from "~/server/auth/admin-session.server";
import { positiveId } from "~/lib/params";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  if (!id) return Response.json({ error: "大会が見つかりません" }, { status: 404 });
  // Unpublished media only inside the admin window (second factor done, 60 minutes), as every admin API.
  const isAdmin = Boolean(await currentAdmin(request));
  const media = listContestMedia(id, { isAdmin });
  if (!media) return Response.json({ error: "大会が見つかりません" }, { status: 404 });
  // The admin's list holds unpublished media: not kept past the admin window.
  const cacheControl = isAdmin ? "private, no-store" : "private, max-age=30";
  return Response.json(media, { headers: { "Cache-Control": cacheControl } });
}
