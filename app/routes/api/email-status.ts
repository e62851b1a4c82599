import { apiAdmin } from "~/server/auth/tokens/api-access.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";
import { mailStatusFor } from "~/server/mail/status.server";

/** GET /api/email-status: whether mail goes out (checked against the SMTP server, kept 60 s). */
export const loader = jsonApi({
  async GET({ request }) {
    const status = await mailStatusFor({ admin: (await apiAdmin(request)) !== null });
    return apiJson(status, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
