import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { parsePeriod } from "~/lib/rules/security-periods";
import { securityDashboard } from "~/server/auth/security-dashboard.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

export const loader = jsonApi({
  async GET({ request }) {
    await requireApiAdmin(request);
    const period = parsePeriod(new URL(request.url).searchParams.get("period"));
    return apiJson(
      { dashboard: securityDashboard(period, protectionSettings()) },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});
export const action = loader;
