/**
 * Which chosen file is a video, as the browser can tell before sending it. The server decides
 * by the bytes (MP4, MOV, WebM: `server/core/sniff.server.ts`); the browser has only the type
 * the system reports and the name. Chromium reports no type for a `.MOV` on systems that do not
 * know QuickTime (and some report application/octet-stream), so there the name's extension
 * decides, for the kinds the server stores.
 */

/** The extensions of the videos the server stores, with the type each is sent as. */
const VIDEO_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  mov: "video/quicktime",
  qt: "video/quicktime",
  webm: "video/webm",
};

/** The file inputs' accept: video/* alone hides a .MOV in the file picker of a system that does not know its type. */
export const VIDEO_ACCEPT = [
  "video/*",
  ...Object.keys(VIDEO_TYPES_BY_EXTENSION).map((ext) => `.${ext}`),
].join(",");

/** Types a system reports when it does not know the file: the name is all there is to go by. */
const UNKNOWN_TYPES = new Set(["", "application/octet-stream"]);

/** The video type of a chosen file (its own, or its extension's when the type is unknown), or null when it is not a video. */
export function videoTypeOf(file: { name: string; type: string }): string | null {
  if (file.type.startsWith("video/")) return file.type;
  if (!UNKNOWN_TYPES.has(file.type)) return null;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? "";
  return Object.hasOwn(VIDEO_TYPES_BY_EXTENSION, extension)
    ? (VIDEO_TYPES_BY_EXTENSION[extension] ?? null)
    : null;
}
