import { isDatabaseUp } from "~/server/db/client.server";

export function loader() {
  const ok = isDatabaseUp();
  return new Response(ok ? "ok" : "database unavailable", {
    status: ok ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
