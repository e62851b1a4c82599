import { startRegistrationCall, stepRefused } from "~/server/accounts/customer-api.server";
import { resendRegistrationCode } from "~/server/accounts/registration.server";
import { jsonApi, readApiBody, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * The spec's registration code, mapped onto /register: `{email, password, name}` is the register
 * form whose confirmation is the password itself (the spec's screen compared the two), and the
 * terms must still be agreed to (`agreesToTerms: true`), as on the form. Sent again for the
 * address this session is already registering, it is the code page's 再送信 (once a minute).
 */
export const loader = jsonApi({
  async POST({ request }) {
    const body = await readApiBody(request, 8 * 1024);
    const session = await getSession(request);
    const pending = session.get("registration");
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : null;
    if (pending && pending.email === email) {
      const resent = await resendRegistrationCode(pending, request);
      if (!resent.ok) return stepRefused(resent);
      return apiJson({ message: "認証コードを再送信しました", email: pending.email }, { status: 202 });
    }
    return startRegistrationCall(request, session, { confirmPassword: body.password, ...body });
  },
});
export const action = loader;
