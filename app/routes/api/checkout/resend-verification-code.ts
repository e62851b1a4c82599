import { loginSchema } from "~/lib/schemas/account-schemas";
import { stepRefused } from "~/server/accounts/customer-api.server";
import { checkoutAwaitingCode } from "~/server/checkout/checkout-api.server";
import { sendCheckoutCode } from "~/server/checkout/steps.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * /email-verification's 再送信: a new code to the checkout's own address, at most once a minute
 * (429 with Retry-After) and within the same limits as the first code.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { email } = await readApiInput(request, loginSchema.pick({ email: true }), { maxBytes: 4 * 1024 });
    const found = checkoutAwaitingCode(await getSession(request), email);
    if (!found.ok) return found.refusal;
    if (found.priced.checkout.emailVerifiedAt) return apiError(409, "メールアドレスは確認済みです");
    const sent = await sendCheckoutCode(request, found.priced.checkout);
    if (!sent.ok) return stepRefused(sent);
    return apiJson({ message: "認証コードを再送信しました" }, { status: 202 });
  },
});
export const action = loader;
