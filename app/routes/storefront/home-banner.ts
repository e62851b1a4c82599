import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/server/core/env.server";
import { notFound } from "~/server/http/not-found.server";
import { bannerRendition, bannerWidth } from "~/server/media/home-banner.server";

/** The shop's banner photo (HOME_BANNER_IMAGE) at one of its widths; its URL changes with the file. */
export async function loader({ params }: LoaderFunctionArgs) {
  const file = env().HOME_BANNER_IMAGE;
  const width = bannerWidth(params.file);
  if (!file || !width) notFound();
  return new Response(new Uint8Array(await bannerRendition(file, width)), {
    headers: {
      "Content-Type": "image/webp",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
