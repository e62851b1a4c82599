import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { claimDownload } from "~/server/orders/downloads.server";
import { fileStore } from "~/server/files/store.server";
import { attachmentDisposition } from "~/server/http/content-disposition.server";
import { positiveId } from "~/lib/rules/params";
import { downloadRefusedPath } from "~/lib/rules/download-links";

/** How long a download's signed URL is valid (object storage); coming back within 24 hours gets a fresh one. */
const DOWNLOAD_URL_LIFETIME_S = 10 * 60;

/** A browser's navigation asks for a page; a download manager or a Range resume does not. */
function wantsPage(request: Request): boolean {
  return (
    request.headers.get("Sec-Fetch-Dest") === "document" ||
    (request.headers.get("Accept") ?? "").includes("text/html")
  );
}

/**
 * A delivered video, counted by the shop: an external URL is a redirect; a file of the shop is
 * streamed with Range from the folder, or (object storage) a redirect to a signed URL that
 * expires within minutes, S3 doing the Range requests.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const lineId = positiveId(params.lineId) ?? 0;
  const decision = claimDownload(params.id ?? "", lineId, params.format ?? "");
  if (!decision.ok) {
    // A person who followed a link (a saved link, a page left open past the window) sees the
    // download page saying why, with the way to get help, answered 410 there; a program
    // (a download manager, a resume) keeps the short answer.
    if (decision.status === 410 && wantsPage(request))
      return redirect(downloadRefusedPath(params.id ?? "", lineId), {
        status: 303,
        headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
      });
    return new Response(decision.message, {
      status: decision.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  if (decision.kind === "redirect")
    return redirect(decision.url, {
      headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    });
  const extension = decision.storedName.split(".").pop() ?? "mp4";
  return (await fileStore()).respond(request, decision.storedName, {
    contentType: decision.contentType,
    cacheControl: "private, no-store",
    audience: "private",
    disposition: attachmentDisposition(`video-${lineId}.${extension}`, decision.fileName),
    urlLifetimeSeconds: DOWNLOAD_URL_LIFETIME_S,
  });
}
