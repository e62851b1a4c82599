import { customerAnswer, requireCustomerSession } from "~/server/accounts/customer-api.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

/**
 * The logged-in user of this session, as the header's account menu shows it; 401 when nobody is
 * (a login still waiting for its second factor is nobody yet, as on every screen).
 */
export const loader = jsonApi({
  async GET({ request }) {
    const { user } = await requireCustomerSession(request);
    return apiJson({ user: customerAnswer(user) }, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
