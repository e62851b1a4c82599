import { pricedCheckout } from "~/server/checkout/steps.server";
import { preparePayment } from "~/server/checkout/payment.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { getSession } from "~/server/http/session.server";

/**
 * The spec's call. Whatever amount the client sends is ignored: the amount is the
 * session's checkout total as the server computes it.
 */
export const loader = jsonApi({
  async POST({ request }) {
    const session = await getSession(request);
    const priced = pricedCheckout(session);
    const { customerEmail, customerName, emailVerifiedAt } = priced?.checkout ?? {};
    if (!priced || !customerEmail || !customerName || !emailVerifiedAt)
      return apiError(409, "注文情報が見つかりません");
    const prepared = await preparePayment({ ...priced, email: customerEmail, name: customerName });
    if (!prepared.ok) return apiError(prepared.status, prepared.message);
    return apiJson({ clientSecret: prepared.intent.clientSecret, amount: prepared.intent.amount });
  },
});
export const action = loader;
