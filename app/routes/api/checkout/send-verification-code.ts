import { loginSchema } from "~/lib/schemas/account-schemas";
import { stepRefused } from "~/server/accounts/customer-api.server";
import { checkoutAwaitingCode } from "~/server/checkout/checkout-api.server";
import { sendCheckoutCode } from "~/server/checkout/steps.server";
import { jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * The checkout's e-mail code (/email-verification), to the address of the session's checkout only,
 * within the same limits: once a minute per checkout, 30 per client address an hour, every mailed
 * code's cap per address, none once the address has used its wrong tries. A code sent less than a
 * minute ago is still good (as after the confirmation step): the answer says so. An address
 * already verified for this checkout needs no code.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { email } = await readApiInput(request, loginSchema.pick({ email: true }), { maxBytes: 4 * 1024 });
    const found = checkoutAwaitingCode(await getSession(request), email);
    if (!found.ok) return found.refusal;
    const { checkout } = found.priced;
    if (checkout.emailVerifiedAt)
      return apiJson({
        message: "メールアドレスは確認済みです",
        verified: true,
        redirectTo: "/payment",
      });
    const sent = await sendCheckoutCode(request, checkout);
    if (!sent.ok && !sent.alreadySent) return stepRefused(sent);
    return apiJson(
      {
        message: `${found.email} に6桁の認証コードを送信しました`,
        verified: false,
        redirectTo: "/email-verification",
      },
      { status: 202 },
    );
  },
});
export const action = loader;
