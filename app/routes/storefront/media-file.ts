import type { LoaderFunctionArgs } from "@remix-run/node";
import { storefrontAudience } from "~/server/media/public-catalogue.server";
import { fileStore, isStoredName } from "~/server/files/store.server";
import { contentTypeOfStored } from "~/server/core/sniff.server";
import { notFound } from "~/server/http/not-found.server";

/**
 * Public media: cover images (and their variants) and the sample media of contests on sale.
 * Stored names are random and never reused, so files cache for a year. From object storage,
 * a redirect to a short-lived signed URL (or S3_PUBLIC_BASE_URL's CDN). An unpublished contest's
 * cover is served private (storefrontAudience): a signed URL, kept by no cache, so it never
 * reaches the CDN or a shared cache before the contest is shown. A sample of a contest behind a
 * 合言葉 is served (private) only to a visitor who entered it; its cover stays public, as its card.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  const contentType = contentTypeOfStored(name);
  const audience = isStoredName(name) && contentType ? await storefrontAudience(request, name) : null;
  if (!contentType || !audience) notFound();
  return (await fileStore()).respond(request, name, {
    contentType,
    cacheControl: audience === "public" ? "public, max-age=31536000, immutable" : "private, no-store",
    audience,
  });
}
