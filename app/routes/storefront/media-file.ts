import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileResponse } from "~/server/files/file-response.server";
import { isPubliclyServable } from "~/server/media/public-catalogue.server";
import { mediaPath } from "~/server/files/storage.server";
import { contentTypeOfStored } from "~/server/files/sniff.server";
import { notFound } from "~/server/http/not-found.server";

/**
 * Public media: cover images (and their variants) and the sample media of contests on sale.
 * Stored names are random and never reused, so files cache for a year.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  const file = mediaPath(name);
  const contentType = contentTypeOfStored(name);
  if (!file || !contentType || !(name.startsWith("cover-") || isPubliclyServable(name))) notFound();
  return fileResponse(request, file, { contentType, cacheControl: "public, max-age=31536000, immutable" });
}
