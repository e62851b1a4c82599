import { logInAdmin } from "~/server/auth/login/admin-login.server";
import { loginCookies } from "~/server/auth/login/login.server";
import { adminLoginRefusal, checkApiPassword } from "~/server/auth/login/login-api.server";
import { ensureLoginCodeSent, secondFactorPrompt } from "~/server/auth/second-factor/second-factor.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * /admin-login's password step as JSON: the same schema, lockout, per-address limit and login
 * records. A right password starts the second factor on this session and mails the code, as
 * the code page's first view does; the session cookie carries the login to verify-2fa.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const result = await checkApiPassword(request, "admin");
    const session = await getSession(request);
    const outcome = logInAdmin(session, result);
    if (!outcome.ok) return adminLoginRefusal(outcome);
    // Past the address's cap no code went out: said instead of the prompt, as the code page does.
    const notSent = await ensureLoginCodeSent(session);
    return apiJson(
      {
        requiresTwoFactor: true,
        redirectTo: "/admin-2fa-verify",
        message: notSent ?? secondFactorPrompt(session),
        remainingAttempts: null,
        lockoutUntil: null,
      },
      { headers: await loginCookies(session, result) },
    );
  },
});
export const action = loader;
