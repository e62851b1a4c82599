import { startRegistrationCall } from "~/server/accounts/customer-api.server";
import { jsonApi, readApiBody } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * /register as JSON, the same form and the same step: the registration starts on this session and
 * a six-digit code (and a link) is mailed to the address, within the same limits (10 per client
 * address an hour, and every mailed code's cap per address). The account is made by the code
 * (POST /api/verify-registration-code) or the link (GET /api/verify-email): the shop never makes
 * an account for an address nobody has shown to be theirs. An address that already has an
 * account gets the same answer (its mail says so), so the call tells nobody who is registered.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const body = await readApiBody(request, 8 * 1024);
    return startRegistrationCall(request, await getSession(request), body);
  },
});
export const action = loader;
