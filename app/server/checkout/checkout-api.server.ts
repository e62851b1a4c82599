import { apiError } from "../http/json-api.server";
import type { ShopSession } from "../http/session.server";
import { pricedCheckout, type PricedCheckout } from "./steps.server";

/** The checkout's JSON calls (the spec's e-mail code and coupon calls): what they refuse, and why. */
export const CHECKOUT_API_MESSAGES = {
  noCheckout: "注文情報が見つかりません",
  otherAddress:
    "このメールアドレスはご注文のメールアドレスではありません。メールアドレスを変更する場合は、注文内容の確認からやり直してください。",
} as const;

/**
 * The session's checkout for its e-mail code step, with the address the customer gave at the
 * confirmation step (or POST /api/video/orders): 409 without one. The spec's calls name the
 * address; it only has to be the checkout's own, so no code goes to an address nobody confirmed.
 */
export function checkoutAwaitingCode(
  session: ShopSession,
  email: string,
): { ok: true; priced: PricedCheckout; email: string } | { ok: false; refusal: Response } {
  const priced = pricedCheckout(session);
  const own = priced?.checkout.customerEmail;
  if (!priced || !own || !priced.checkout.customerName)
    return { ok: false, refusal: apiError(409, CHECKOUT_API_MESSAGES.noCheckout) };
  if (own !== email.trim().toLowerCase())
    return { ok: false, refusal: apiError(409, CHECKOUT_API_MESSAGES.otherAddress) };
  return { ok: true, priced, email: own };
}
