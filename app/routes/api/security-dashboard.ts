import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/server/auth/admin-session.server";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { parsePeriod } from "~/lib/security-periods";
import { securityDashboard } from "~/server/auth/security-dashboard.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  const period = parsePeriod(new URL(request.url).searchParams.get("period"));
  return Response.json(
    { dashboard: securityDashboard(period, protectionSettings()) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
