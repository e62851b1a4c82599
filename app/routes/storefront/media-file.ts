import type { LoaderFunctionArgs } from "@remix-run/node";
import { isPubliclyServable } from "~/server/media/public-catalogue.server";
import { fileStore, isStoredName } from "~/server/files/store.server";
import { contentTypeOfStored } from "~/server/files/sniff.server";
import { notFound } from "~/server/http/not-found.server";

/**
 * Public media: cover images (and their variants) and the sample media of contests on sale.
 * Stored names are random and never reused, so files cache for a year. From object storage,
 * a redirect to a short-lived signed URL (or S3_PUBLIC_BASE_URL's CDN).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  const contentType = contentTypeOfStored(name);
  if (!isStoredName(name) || !contentType || !(name.startsWith("cover-") || isPubliclyServable(name)))
    notFound();
  return (await fileStore()).respond(request, name, {
    contentType,
    cacheControl: "public, max-age=31536000, immutable",
    audience: "public",
  });
}
