import { checkoutUntilVerified } from "./checkout-flow";
import type { startFakeStripe } from "./fake-stripe";
import { callRoute } from "./route";
import { seedContest } from "./shop";
import type { ReceivedMail } from "./smtp";

type Parts = {
  smtp: { received: ReceivedMail[] };
  stripe: Awaited<ReturnType<typeof startFakeStripe>>;
};

/**
 * A verified checkout of a contest's athlete (a fresh contest unless `shop` is given; 縦 3,000円,
 * with `both` also 横 4,500円) and the PaymentIntent the shop made for it at the local Stripe, as
 * the payment page's script asks (`body`: what the browser sends, which the server ignores).
 */
export async function intentOfVerifiedCheckout(
  parts: Parts,
  { both = true, body = "{}", shop = seedContest() } = {},
) {
  const { cookie, email } = await checkoutUntilVerified(
    shop,
    [
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
      ...(both ? [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.horizontal.id }] : []),
    ],
    parts.smtp.received,
  );
  const response = await askForPaymentIntent(cookie, body);
  const clientSecret = (response.data as { clientSecret?: string } | null)?.clientSecret;
  const intent = [...parts.stripe.intents.values()].find((i) => i.client_secret === clientSecret);
  return { cookie, email, response, intent };
}

/** The payment page's script asking the shop for the checkout's PaymentIntent. */
export async function askForPaymentIntent(cookie: string, body = "{}") {
  const api = await import("~/routes/api/create-payment-intent");
  return callRoute(
    api.action,
    new Request("http://shop.test/api/create-payment-intent", {
      method: "POST",
      body,
      headers: { Cookie: cookie, "Content-Type": "application/json" },
    }),
  );
}
