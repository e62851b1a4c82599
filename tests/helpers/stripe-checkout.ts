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

/**
 * A verified checkout of one 縦 video whose payment page made its intent at the local Stripe, and
 * konbini chosen in the Payment Element: the voucher shown, due `dueInDays` days from now (to the
 * second, as Stripe keeps it). The browser has not come back from Stripe yet (`returnFromStripe`).
 */
export async function konbiniVoucherShown(parts: Parts, dueInDays = 3) {
  const shop = seedContest();
  const { cookie, email } = await checkoutUntilVerified(
    shop,
    [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
    parts.smtp.received,
  );
  const payment = await import("~/routes/checkout/payment");
  const page = await callRoute(
    payment.loader,
    new Request("http://shop.test/payment", { headers: { Cookie: cookie } }),
  );
  const clientSecret = (page.data as { payment: { clientSecret: string } }).payment.clientSecret;
  const intent = [...parts.stripe.intents.values()].find((i) => i.client_secret === clientSecret)!;
  const dueAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + dueInDays * 86_400_000);
  parts.stripe.showKonbiniVoucher(intent.id, dueAt);
  return { cookie, email, intent, dueAt };
}

/** The browser back from Stripe's voucher at the shop's return address. */
export async function returnFromStripe(intentId: string, cookie: string) {
  const back = await import("~/routes/checkout/payment-return");
  return callRoute(
    back.loader,
    new Request(`http://shop.test/payment/return?payment_intent=${intentId}`, {
      headers: { Cookie: cookie },
    }),
  );
}
