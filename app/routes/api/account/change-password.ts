import { newPasswordSchema } from "~/lib/schemas/account-schemas";
import { requireCustomerSession, stepRefused } from "~/server/accounts/customer-api.server";
import { changePassword, PASSWORD_CHANGE_MESSAGES } from "~/server/accounts/password-change.server";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";
import { commitSession } from "~/server/http/session.server";

/**
 * The password change's last step: `{newPassword}` (and `confirmPassword`, which is the new
 * password itself when left out: the spec's dialog compared the two) with the registration's
 * password rules, only within 10 minutes of the mailed code on this session (409 otherwise). The
 * shop asks for that code instead of the current password, so the spec's `currentPassword` is
 * not read. Every other session of the account is logged out; this one stays.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const body = await readApiBody(request, 4 * 1024);
    const { session, user } = await requireCustomerSession(request);
    const { newPassword } = parseApiInput(newPasswordSchema, { confirmPassword: body.newPassword, ...body });
    const changed = await changePassword(session, user, newPassword);
    if (!changed.ok)
      return "retryAfterSeconds" in changed
        ? stepRefused(changed)
        : apiError(changed.status, changed.message);
    return apiJson(
      { message: PASSWORD_CHANGE_MESSAGES.changed },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  },
});
export const action = loader;
