import { authenticatorConfirmSchema } from "~/lib/schemas/second-factor-schema";
import { requireApiAdminSession } from "~/server/auth/tokens/api-access.server";
import { confirmAuthenticatorWithSecret } from "~/server/auth/second-factor/authenticator-setup.server";
import { authenticatorRefusal } from "~/server/auth/login/login-api.server";
import { jsonApi, readApiBody, parseApiInput, apiJson } from "~/server/http/json-api.server";

/**
 * The setup's confirmation: `token` is the new app's 6-digit code, `secret` the one setup-2fa
 * answered (it must match the setup kept on the server; it never sets one). Then, as on the
 * screen, the app replaces the mailed codes, the account's other logins end and a notice is mailed.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { admin, session } = await requireApiAdminSession(request);
    const body = await readApiBody(request, 4 * 1024);
    // The screen's form names the code `code` and the setup `token`; the spec's call, `token` and `secret`.
    const input = parseApiInput(
      authenticatorConfirmSchema,
      { code: body.token, token: body.secret },
      { code: "token", token: "secret" },
    );
    const confirmed = confirmAuthenticatorWithSecret(session, admin, input.token, input.code);
    if (!confirmed.ok) return authenticatorRefusal(confirmed, { code: "token" });
    return apiJson({
      enabled: true,
      change: confirmed.change,
      message: "2段階認証を設定しました",
    });
  },
});
export const action = loader;
