import { loginSchema } from "~/lib/schemas/account-schemas";
import { sixDigitCodeSchema } from "~/lib/schemas/second-factor-schema";
import { customerAnswer, customerLoginRefusal } from "~/server/accounts/customer-api.server";
import { checkApiPassword, lockedAnswer } from "~/server/auth/login/login-api.server";
import { loginCookies, logInCustomer } from "~/server/auth/login/login.server";
import {
  enterSecondFactorCode,
  ensureLoginCodeSent,
  secondFactorPrompt,
} from "~/server/auth/second-factor/second-factor.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/** A login body is an e-mail, a password and perhaps a code: a few hundred bytes. */
const LOGIN_BODY_BYTES = 4 * 1024;

/**
 * /login as JSON: the same schema, lockout (10 wrong passwords lock for 15 minutes), per-address
 * limit and login records, through the same password step and logInCustomer. An account with a
 * second factor (an admin, or an authenticator app) gets `requiresTwoFactor` and, for a mailed
 * code, the code, exactly as /login hands it to the code page; the spec's client then sends the
 * same body again with `twoFactorCode`, which is checked as the code page checks it (5 wrong
 * codes lock the account). The password is checked again on that call: the code never stands in
 * for it.
 */
export const loader = jsonApi({
  async POST({ request }) {
    // Read once here for the code; the password step reads the same bytes from its own copy.
    const body = await readApiBody(request.clone(), LOGIN_BODY_BYTES);
    const values = parseApiInput(loginSchema, body);
    const rawCode = body.twoFactorCode;
    const code =
      rawCode === undefined || rawCode === null || rawCode === ""
        ? null
        : parseApiInput(sixDigitCodeSchema, { code: rawCode }, { code: "twoFactorCode" }).code;
    const result = await checkApiPassword(request, "customer");
    const session = await getSession(request);
    const login = logInCustomer(session, { ...values, redirectTo: undefined }, result);
    if (!login.ok) return customerLoginRefusal(login);
    const headers = () => loginCookies(session, result);

    if (login.secondFactor) {
      if (code === null) {
        // Past the address's cap no code went out: said instead of the prompt, as the code page does.
        const notSent = await ensureLoginCodeSent(session);
        return apiJson(
          {
            user: null,
            requiresTwoFactor: true,
            remainingAttempts: null,
            lockoutUntil: null,
            message: notSent ?? secondFactorPrompt(session),
          },
          { headers: await headers() },
        );
      }
      const checked = enterSecondFactorCode(request, session, code);
      if (!checked.ok) {
        if (checked.reason === "locked")
          return lockedAnswer(checked.message, checked.lockedUntil, await headers());
        return apiError(401, checked.message, {
          user: null,
          requiresTwoFactor: true,
          remainingAttempts: null,
          lockoutUntil: null,
          warning: checked.reason === "wrong" ? checked.warning : null,
          headers: await headers(),
        });
      }
    }
    const user = await getCurrentUser(session);
    if (!user) return apiError(401, "認証に失敗しました。もう一度ログインしてください。");
    return apiJson(
      {
        user: customerAnswer(user),
        requiresTwoFactor: false,
        remainingAttempts: null,
        lockoutUntil: null,
        message: "ログインしました",
      },
      { headers: await headers() },
    );
  },
});
export const action = loader;
