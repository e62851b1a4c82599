import { authenticatorIdentitySchema } from "~/lib/schemas/second-factor-schema";
import { requireApiAdminSession } from "~/server/auth/tokens/api-access.server";
import {
  AUTHENTICATOR_MESSAGES,
  sendAuthenticatorChangeCode,
  startAuthenticatorSetup,
} from "~/server/auth/second-factor/authenticator-setup.server";
import { authenticatorRefusal, codeNotSent } from "~/server/auth/login/login-api.server";
import { jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";

/**
 * /admin/two-factor-setup's first steps as JSON. The spec's call has no payload; here, as on the
 * screen, nothing changes before the admin's password and current second factor: an empty body
 * mails the code for the change (when that factor is mailed codes), and {password, code} then
 * answers the new secret and its QR code. The secret is kept sealed on the server for 15 minutes.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { admin } = await requireApiAdminSession(request);
    const body = await readApiBody(request, 4 * 1024);
    if (Object.keys(body).length === 0) {
      const sent = await sendAuthenticatorChangeCode(request, admin);
      if (sent.ok)
        return apiJson({ codeSent: true, message: AUTHENTICATOR_MESSAGES.codeSent }, { status: 202 });
      return "field" in sent ? authenticatorRefusal(sent) : codeNotSent(sent);
    }
    const identity = parseApiInput(authenticatorIdentitySchema, body);
    const started = await startAuthenticatorSetup(request, admin, identity);
    if (!started.ok) return authenticatorRefusal(started);
    return apiJson({ secret: started.setup.secret, qrCode: started.setup.qrCode });
  },
});
export const action = loader;
