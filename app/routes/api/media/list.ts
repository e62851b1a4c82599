import type { LoaderFunctionArgs } from "@remix-run/node";
import { listContestMedia } from "~/server/media/public-catalogue.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { positiveId } from "~/lib/params";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  if (!id) return Response.json({ error: "大会が見つかりません" }, { status: 404 });
  const user = await getCurrentUser(request);
  const media = listContestMedia(id, { isAdmin: user?.isAdmin ?? false });
  if (!media) return Response.json({ error: "大会が見つかりません" }, { status: 404 });
  return Response.json(media, { headers: { "Cache-Control": "private, max-age=30" } });
}
