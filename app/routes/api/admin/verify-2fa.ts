import { loginSchema } from "~/lib/schemas/account-schemas";
import { sixDigitCodeSchema } from "~/lib/schemas/second-factor-schema";
import { lockedAnswer } from "~/server/auth/login/login-api.server";
import { enterSecondFactorCode, pendingLoginFor } from "~/server/auth/second-factor/second-factor.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { commitSession, getSession } from "~/server/http/session.server";

/** The spec's payload: the login's address (only checked against the session's) and the code form's code. */
const verifySchema = loginSchema.pick({ email: true }).merge(sixDigitCodeSchema);

const NO_LOGIN = "認証に失敗しました。もう一度ログインしてください。";

/**
 * /admin-2fa-verify's code step as JSON: the same check, failure count and lock, and login
 * records; a right code makes this session the admin session (Set-Cookie).
 */
export const loader = jsonApi({
  async POST({ request }) {
    const session = await getSession(request);
    const { email, code } = await readApiInput(request, verifySchema, { maxBytes: 4 * 1024 });
    // The account is the session's pending login; an address naming any other is refused unchecked.
    if (pendingLoginFor(session, email) === "other") return apiError(401, NO_LOGIN);
    const result = enterSecondFactorCode(request, session, code);
    const headers = { "Set-Cookie": await commitSession(session) };
    if (result.ok)
      return apiJson(
        { redirectTo: result.user.isAdmin ? "/admin" : result.redirectTo, message: "ログインしました" },
        { headers },
      );
    if (result.reason === "locked") return lockedAnswer(result.message, result.lockedUntil, headers);
    if (result.reason === "expired")
      return apiError(401, result.message, { redirectTo: "/admin-login", headers });
    return apiError(401, result.message, { warning: result.warning, headers });
  },
});
export const action = loader;
