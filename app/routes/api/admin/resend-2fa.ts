import { loginSchema } from "~/lib/schemas/account-schemas";
import { lockedAnswer } from "~/server/auth/login/login-api.server";
import { pendingLoginFor, resendSecondFactor } from "~/server/auth/second-factor/second-factor.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { commitSession, getSession } from "~/server/http/session.server";

/**
 * /admin-2fa-verify's 認証コードを再送信 as JSON: a new code to the pending login's own address
 * (the address sent only has to be that one), within the same limits; the 10 minutes start again.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const session = await getSession(request);
    const { email } = await readApiInput(request, loginSchema.pick({ email: true }), { maxBytes: 4 * 1024 });
    if (pendingLoginFor(session, email) === "other") return apiError(409, "再送信に失敗しました");
    const resent = await resendSecondFactor(session);
    if (resent.ok)
      return apiJson(
        { message: resent.message },
        { headers: { "Set-Cookie": await commitSession(session) } },
      );
    if (resent.status === 423) return lockedAnswer(resent.message, resent.lockedUntil);
    return apiError(resent.status, resent.message, { headers: retryAfterHeaders(resent) });
  },
});
export const action = loader;
