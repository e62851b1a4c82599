import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { claimDownload, downloadPoster } from "~/server/orders/customer/downloads.server";
import { offerDownloadRetries, watchDownload } from "~/server/orders/customer/download-retry.server";
import { fileStore } from "~/server/files/store.server";
import { attachmentDisposition } from "~/server/http/content-disposition.server";
import { notFoundResponse } from "~/server/http/not-found.server";
import { positiveId } from "~/lib/rules/params";
import { downloadRefusedPath } from "~/lib/rules/download-links";
import { downloadVideoRequest } from "~/lib/rules/download-video-links";

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
 * A delivered video, counted by the shop: an external URL is a redirect; a file of the shop (the
 * original, or its phone version with `?v=phone`) is streamed with Range from the folder, or
 * (object storage) a redirect to a signed URL that expires within minutes, S3 doing the Range
 * requests. The page's player (`play=1`) gets the same bytes, counted the same, shown inline
 * rather than saved; `?v=poster` is the player's poster, by the page's link, counted never.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const lineId = positiveId(params.lineId) ?? 0;
  const pageId = params.id ?? "";
  const format = params.format ?? "";
  const asked = downloadVideoRequest(new URL(request.url).searchParams);
  if (!asked) return notFoundResponse("この形式の動画はありません");
  if (asked.version === "poster") {
    const poster = downloadPoster(pageId, lineId, format);
    if (!poster) return notFoundResponse();
    return (await fileStore()).respond(request, poster, {
      contentType: "image/jpeg",
      cacheControl: "private, no-store",
      audience: "private",
      urlLifetimeSeconds: DOWNLOAD_URL_LIFETIME_S,
    });
  }
  // A saved link used after its window, before the server's pass: the second chance is offered first.
  offerDownloadRetries({ pageId });
  const decision = claimDownload(pageId, lineId, format, asked.version);
  if (!decision.ok) {
    // A person who followed a link (a saved link, a page left open past the window) sees the
    // download page saying why, with the way to get help, answered 410 there; a program
    // (a download manager, a resume, the player) keeps the short answer.
    if (decision.status === 410 && wantsPage(request))
      return redirect(downloadRefusedPath(pageId, lineId), {
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
  const asciiName = `video-${lineId}${decision.version === "phone" ? "-phone" : ""}.${extension}`;
  const response = await (
    await fileStore()
  ).respond(request, decision.storedName, {
    contentType: decision.contentType,
    cacheControl: "private, no-store",
    audience: "private",
    // The player shows the video in the page; a download saves it under the athlete's name.
    disposition: asked.play ? undefined : attachmentDisposition(asciiName, decision.fileName),
    urlLifetimeSeconds: DOWNLOAD_URL_LIFETIME_S,
  });
  // Whether a download reached its end or was cut short: a cut one may be offered again.
  if (!asked.play) watchDownload(lineId, response, context.responseSent);
  return response;
}
