import { customerAnswer, notLoggedIn } from "~/server/accounts/customer-api.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

/**
 * The logged-in user of this session, as the header's account menu shows it; 401 when nobody is
 * (a login still waiting for its second factor is nobody yet, as on every screen).
 */
export const loader = jsonApi({
  async GET({ request }) {
    const user = await getCurrentUser(request);
    if (!user) return notLoggedIn();
    return apiJson({ user: customerAnswer(user) }, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
