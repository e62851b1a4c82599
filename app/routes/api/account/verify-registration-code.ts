import { loginSchema, registrationCodeSchema } from "~/lib/schemas/account-schemas";
import { REGISTRATION_API_MESSAGES } from "~/server/accounts/customer-api.server";
import { verifyRegistrationCode } from "~/server/accounts/registration.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { commitSession, getSession } from "~/server/http/session.server";

const verifySchema = loginSchema.pick({ email: true }).merge(registrationCodeSchema);

/**
 * /register/verify's code as JSON: the right code makes the account, with the same tries per code
 * (a wrong one is 400, as the spec's client expects; too many 429). As on the screen, nobody is
 * logged in by it: the answer is the new account, and the customer logs in (POST /api/login). The
 * address only has to be the one this session is registering; it never picks the registration.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { email, code } = await readApiInput(request, verifySchema, { maxBytes: 4 * 1024 });
    const session = await getSession(request);
    const registration = session.get("registration");
    if (!registration || registration.email !== email.toLowerCase())
      return apiError(409, REGISTRATION_API_MESSAGES.noRegistration);
    const result = verifyRegistrationCode(registration, code, request);
    if (!result.ok) return apiError(result.status, result.message);
    session.unset("registration");
    return apiJson(
      {
        user: { username: result.email, isAdmin: false },
        loggedIn: false,
        message: "会員登録が完了しました",
        redirectTo: registration.fromOrder ? "/registration-success?from=order" : "/registration-success",
      },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  },
});
export const action = loader;
