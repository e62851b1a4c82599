import { readiness } from "~/server/metrics/readiness.server";

/**
 * fly.io's readiness check: 200 "ready", or 503 naming which check failed. The address is public,
 * so the figures behind a failure (the disk's size and free space, SQLite's error) go to the log.
 */
export async function loader() {
  const state = await readiness();
  if (!state.ready) console.error(`[readyz] not ready: ${state.failed.join("; ")}`);
  const checks = state.ready ? [] : state.failed.map((problem) => problem.replace(/ \(.*\)$/, ""));
  return new Response(state.ready ? "ready" : `not ready: ${checks.join("; ")}`, {
    status: state.ready ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
