import { apiAdmin } from "~/server/auth/tokens/api-access.server";
import { getCurrentUser, type CurrentUser } from "~/server/auth/users.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

const userAnswer = (user: CurrentUser) => ({
  id: user.id,
  username: user.email,
  name: user.name,
  isAdmin: user.isAdmin,
});

/**
 * Who this request is: the logged-in customer or admin (a login still waiting for its second
 * factor is nobody yet), or the admin behind an API token. `admin` says whether the admin calls
 * answer it now (second factor done within the 60-minute admin session, or a token).
 */
export const loader = jsonApi({
  async GET({ request }) {
    const caller = await apiAdmin(request);
    if (caller) return apiJson({ authenticated: true, admin: true, user: userAnswer(caller.admin) });
    const user = await getCurrentUser(request);
    return apiJson({
      authenticated: user !== null,
      admin: false,
      user: user ? userAnswer(user) : null,
    });
  },
});
export const action = loader;
