import { logOut } from "~/server/auth/login/session-login.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";
import { commitSession, getSession } from "~/server/http/session.server";

/**
 * Ends the login on this session, a customer's or an admin's (or a login waiting for its second
 * factor), as the screens' ログアウト does; the cookie is cleared. Nobody logged in is fine too.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const session = await getSession(request);
    logOut(session);
    return apiJson({ ok: true }, { headers: { "Set-Cookie": await commitSession(session) } });
  },
});
export const action = loader;
