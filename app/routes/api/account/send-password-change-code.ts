import { requireCustomerSession, stepRefused } from "~/server/accounts/customer-api.server";
import { PASSWORD_CHANGE_MESSAGES, sendPasswordChangeCode } from "~/server/accounts/password-change.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

/**
 * The password change's first step (the dialog's 認証コードを送信): a code mailed to the
 * account's own address, within the same limits (once a minute, 20 per client address an hour).
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { user } = await requireCustomerSession(request);
    const sent = await sendPasswordChangeCode(request, user);
    if (!sent.ok) return stepRefused(sent);
    return apiJson({ message: PASSWORD_CHANGE_MESSAGES.sent });
  },
});
export const action = loader;
