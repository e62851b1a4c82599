import { passwordChangeCodeSchema } from "~/lib/schemas/account-schemas";
import { requireCustomerSession } from "~/server/accounts/customer-api.server";
import { verifyPasswordChangeCode } from "~/server/accounts/password-change.server";
import { apiError, jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";
import { commitSession } from "~/server/http/session.server";

/**
 * The password change's second step: the mailed code (5 tries per code) lets this session set a
 * new password for the next 10 minutes (POST /api/change-password).
 */
export const loader = jsonApi({
  async POST({ request }) {
    const body = await readApiBody(request, 4 * 1024);
    const { session, user } = await requireCustomerSession(request);
    const { code } = parseApiInput(passwordChangeCodeSchema, body);
    const verified = verifyPasswordChangeCode(session, user, code);
    if (!verified.ok) return apiError(verified.status, verified.message);
    return apiJson(
      { message: "認証が完了しました。新しいパスワードを入力してください。" },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  },
});
export const action = loader;
