import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayReadMetrics } from "~/server/metrics/access.server";
import { readiness } from "~/server/metrics/readiness.server";

/**
 * fly.io's readiness check: 200 "ready", or 503 naming which check failed ("disk below its
 * reserve"). The address is public, so the figures behind a failure (the disk's size, free space
 * and reserve, SQLite's error) go to the log, and to those who may read /metrics (this machine,
 * the private network, METRICS_TOKEN), who see how full the disk is there anyway.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const state = await readiness();
  if (!state.ready) console.error(`[readyz] not ready: ${state.failed.join("; ")}`);
  const figures = mayReadMetrics(request);
  const checks = state.ready
    ? []
    : state.failed.map((problem) => (figures ? problem : problem.replace(/ \(.*\)$/, "")));
  return new Response(state.ready ? "ready" : `not ready: ${checks.join("; ")}`, {
    status: state.ready ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
