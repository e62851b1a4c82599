import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileResponse } from "~/server/files/file-response.server";
import { isPubliclyServable } from "~/server/media/public-catalogue.server";
import { mediaPath } from "~/server/files/storage.server";
import { notFound } from "~/server/http/not-found.server";

const TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
};

/**
 * Public media: cover images (and their variants) and the sample media of contests on sale.
 * Stored names are random and never reused, so files cache for a year.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  const file = mediaPath(name);
  const contentType = TYPES[name.split(".").pop() ?? ""];
  if (!file || !contentType || !(name.startsWith("cover-") || isPubliclyServable(name))) notFound();
  return fileResponse(request, file, { contentType, cacheControl: "public, max-age=31536000, immutable" });
}
