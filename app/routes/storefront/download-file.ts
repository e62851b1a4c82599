import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { claimDownload } from "~/server/orders/downloads.server";
import { fileResponse } from "~/server/files/file-response.server";
import { mediaPath } from "~/server/files/storage.server";
import { positiveId } from "~/lib/params";
import { notFoundResponse } from "~/server/http/not-found.server";
import { downloadRefusedPath } from "~/lib/download-links";

/** A browser's navigation asks for a page; a download manager or a Range resume does not. */
function wantsPage(request: Request): boolean {
  return (
    request.headers.get("Sec-Fetch-Dest") === "document" ||
    (request.headers.get("Accept") ?? "").includes("text/html")
  );
}

/** A delivered video, through the shop: an external URL is a redirect, a file of the shop is streamed with Range. */
export function loader({ request, params }: LoaderFunctionArgs) {
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
  const file = mediaPath(decision.storedName);
  if (!file) return notFoundResponse();
  const extension = decision.storedName.split(".").pop() ?? "mp4";
  const contentType =
    extension === "webm" ? "video/webm" : extension === "mov" ? "video/quicktime" : "video/mp4";
  return fileResponse(request, file, {
    contentType,
    cacheControl: "private, no-store",
    downloadName: `video-${lineId}.${extension}`,
  });
}
