/**
 * The addresses of a delivered video on its download page (app/routes/storefront/download-file.ts):
 * `/download/:page/:line/:format` is the original as uploaded (the address mailed links always
 * had), `?v=phone` the phone version, `?v=poster` its poster; `play=1` asks for the bytes to be
 * shown in the page's player rather than saved. Every one but the poster counts the download.
 */

export type DownloadVideoRequest =
  { version: "original" | "phone"; play: boolean } | { version: "poster"; play: false };

export function downloadVideoPath(
  pageId: string,
  lineId: number,
  format: string,
  request: DownloadVideoRequest = { version: "original", play: false },
): string {
  const query = new URLSearchParams();
  if (request.version !== "original") query.set("v", request.version);
  if (request.play) query.set("play", "1");
  const search = query.toString() ? `?${query.toString()}` : "";
  return `/download/${encodeURIComponent(pageId)}/${lineId}/${encodeURIComponent(format)}${search}`;
}

/** What a request's query asks for; null for a version the shop does not make. */
export function downloadVideoRequest(searchParams: URLSearchParams): DownloadVideoRequest | null {
  const version = searchParams.get("v") ?? "original";
  if (version === "poster") return { version, play: false };
  if (version !== "original" && version !== "phone") return null;
  return { version, play: searchParams.get("play") === "1" };
}
