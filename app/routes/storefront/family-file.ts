import type { LoaderFunctionArgs } from "@remix-run/node";
import { positiveId } from "~/lib/rules/params";
import { fileStore } from "~/server/files/store.server";
import { notFoundResponse } from "~/server/http/not-found.server";
import { familyFile } from "~/server/orders/customer/family-links.server";

/** How long a signed URL is valid (object storage): the player asks again for a fresh one. */
const URL_LIFETIME_S = 10 * 60;

/**
 * A video of the family link's page (its phone version), or `?v=poster` its poster: shown inline
 * (never an attachment to save), with Range from the folder or a signed URL from the bucket, as
 * the download page's player is; counted never, neither as a view nor as a download.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const kind = new URL(request.url).searchParams.get("v") === "poster" ? "poster" : "video";
  const file = familyFile(params.token ?? "", positiveId(params.lineId) ?? 0, kind);
  if (!file.ok) {
    if (file.status === 404) return notFoundResponse();
    return new Response("このリンクは終了しました", {
      status: 410,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return (await fileStore()).respond(request, file.storedName, {
    contentType: file.contentType,
    cacheControl: "private, no-store",
    audience: "private",
    disposition: "inline",
    urlLifetimeSeconds: URL_LIFETIME_S,
  });
}
