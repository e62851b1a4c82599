import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFoundResponse } from "~/server/http/not-found.server";
import { mayReadMetrics } from "~/server/metrics/access.server";
import { metricsText } from "~/server/metrics/registry.server";

/** Prometheus' scrape (fly.io's [metrics]): a token or the private network; to anyone else, no such address. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!mayReadMetrics(request)) return notFoundResponse();
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
