import { readiness } from "~/server/metrics/readiness.server";

/** fly.io's readiness check: 200 "ready", or 503 saying which check failed. */
export async function loader() {
  const state = await readiness();
  return new Response(state.ready ? "ready" : `not ready: ${state.failed.join("; ")}`, {
    status: state.ready ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
