import { loginSchema } from "~/lib/schemas/account-schemas";
import { codeSchema } from "~/lib/schemas/order-schemas";
import { checkoutAwaitingCode } from "~/server/checkout/checkout-api.server";
import { verifyCheckoutCode } from "~/server/checkout/steps.server";
import { apiError, jsonApi, readApiInput, apiJson } from "~/server/http/json-api.server";
import { commitSession, getSession } from "~/server/http/session.server";

const verifySchema = loginSchema.pick({ email: true }).merge(codeSchema);

/**
 * /email-verification's 認証する: `code` (six digits, or the six boxes as an array) for the
 * checkout's own address. A wrong code is 400 with the tries left; once the checkout or the
 * address has used its tries the checkout starts over (409: the session holds a new draft with the
 * same items, back to the order form), as on the screen.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const { email, code } = await readApiInput(request, verifySchema, { maxBytes: 4 * 1024 });
    const session = await getSession(request);
    const found = checkoutAwaitingCode(session, email);
    if (!found.ok) return found.refusal;
    const { checkout, orderFormUrl } = found.priced;
    if (checkout.emailVerifiedAt)
      return apiJson({
        message: "メールアドレスは確認済みです",
        verified: true,
        redirectTo: "/payment",
      });
    const result = verifyCheckoutCode(request, session, checkout, code);
    const headers = { "Set-Cookie": await commitSession(session) };
    if (result.ok)
      return apiJson({ message: "認証が完了しました", verified: true, redirectTo: "/payment" }, { headers });
    if (result.reason === "restart")
      return apiError(409, result.message, { redirectTo: orderFormUrl, headers });
    // The screen's words: a wrong code says the tries left.
    if (result.reason === "wrong")
      return apiError(400, `${result.message}（あと${result.remainingAttempts}回）`, {
        remainingAttempts: result.remainingAttempts,
        headers,
      });
    return apiError(400, result.message, { remainingAttempts: 0, headers });
  },
});
export const action = loader;
