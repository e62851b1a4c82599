import { eq } from "drizzle-orm";
import { orderMetadata, type CarriedOrder } from "../payments/order-metadata.server";
import type { requireVerifiedCustomer } from "./steps.server";
import { updateCheckout } from "./draft.server";
import { logIn } from "../auth/login/session-login.server";
import { db } from "../db/client.server";
import { checkouts, users } from "../db/schema";
import { recordPayment } from "../orders/record-payment.server";
import { paymentProvider, type PaymentIntentState } from "../payments/index.server";
import type { ShopSession, Toast } from "../http/session.server";
import { couponRefusalMessage, type CouponRefusal } from "../promotions/coupon-refusals.server";
import { summedDiscounts } from "~/lib/rules/promotions";
import { holdCouponUse, releaseOtherHolds } from "../promotions/coupon-uses.server";

export const INVALID_AMOUNT_MESSAGE = "注文金額が無効です";
export const TOTAL_CHANGED_MESSAGE =
  "ご注文内容が変更されたため、お支払い金額が変わりました。金額をご確認のうえ、もう一度お支払いください。";
export const PAYMENT_PROCESSING_MESSAGE =
  "前回のお支払いを処理中です。しばらくしてから、このページを開き直してご確認ください。";
export const PAYMENT_MISMATCH_MESSAGE =
  "お支払いの内容がご注文と一致しないため、ご注文を確定できませんでした。お手数ですが、お問い合わせください。";

type VerifiedCustomer = ReturnType<typeof requireVerifiedCustomer>;
type Checkout = VerifiedCustomer["checkout"];

/**
 * Makes (or reuses) the payment intent for the checkout's total as the server computes
 * it now, and freezes the priced lines the order will be made of. The customer may go back
 * from the payment page and change the videos: the one intent follows the new total (never a
 * second intent while the first can still be paid), and the frozen lines change with it, so
 * what is charged and what the order holds always agree. `shownTotal` is the total the page
 * showed when pay was pressed; a different total now is refused rather than charged. A coupon's
 * use is held here; `couponTaken` says another checkout holds it: priced again, this checkout no
 * longer gets it (that hold counts on every page, promotions/coupon-uses.server.ts).
 */
export async function preparePayment(
  customer: VerifiedCustomer,
  shownTotal?: number,
): Promise<
  | { ok: true; intent: PaymentIntentState }
  | { ok: false; status: 400 | 409; message: string; couponTaken?: "used_up" | "used_by_email" }
> {
  const { checkout, contest, lines, total, email, name, coupon } = customer;
  // What the order needs rides with the payment, so it can be made again if the database is lost.
  const order: CarriedOrder = {
    contestId: contest.id,
    customerEmail: email,
    customerName: name,
    pricedLines: lines,
    couponCode: coupon?.applied ? coupon.code : null,
  };
  if (!(total > 0)) return { ok: false, status: 400, message: INVALID_AMOUNT_MESSAGE };
  if (shownTotal !== undefined && shownTotal !== total)
    return { ok: false, status: 409, message: customer.priceChange ?? TOTAL_CHANGED_MESSAGE };
  const provider = paymentProvider();
  let intent = checkout.paymentIntentId ? await provider.retrieveIntent(checkout.paymentIntentId) : null;
  // Paid, or a konbini voucher already made: the order is the next step, not a new payment.
  if (intent && (intent.status === "succeeded" || intent.konbini)) return { ok: true, intent };
  // A payment the provider is still deciding may yet succeed: a new intent now could charge twice.
  if (intent?.status === "processing") return { ok: false, status: 400, message: PAYMENT_PROCESSING_MESSAGE };
  // The coupon's use is held before the amount goes to the provider: of two checkouts racing for
  // its last use, the one refused here is priced again without it before anything is charged.
  if (coupon?.applied && coupon.couponId !== null) {
    const couponDiscount = summedDiscounts(lines).find((d) => d.kind === "coupon")?.amount ?? 0;
    const held = await holdCouponUse(coupon.couponId, {
      checkoutId: checkout.id,
      email,
      amount: couponDiscount,
    });
    if (!held.ok)
      return { ok: false, status: 409, message: couponGoneMessage(held.reason), couponTaken: held.reason };
  }
  const reusable =
    intent &&
    (intent.status === "requires_payment_method" ||
      intent.status === "requires_confirmation" ||
      intent.status === "requires_action");
  if (!intent || !reusable) {
    intent = await provider.createIntent({
      checkoutId: checkout.id,
      amount: total,
      email,
      replaces: intent?.id,
      order,
    });
  } else if (intent.amount !== total || !carriesOrder(intent, checkout.id, order)) {
    intent = await provider.updateAmount(intent.id, total, { checkoutId: checkout.id, order });
  }
  updateCheckout(checkout.id, { paymentIntentId: intent.id, amount: total, pricedLines: lines });
  // Only now that the payment carries this coupon (or none) are the holds of any other given back.
  releaseOtherHolds(checkout.id, coupon?.applied ? coupon.couponId : null);
  return { ok: true, intent };
}

function couponGoneMessage(reason: CouponRefusal): string {
  return `${couponRefusalMessage(reason)}。クーポンなしの金額に変わりましたので、金額をご確認のうえ、もう一度お進みください。`;
}

/**
 * Whether the intent already carries this order: the same total can hold other lines (another
 * athlete at the same price), and an intent made before orders were carried holds none.
 */
function carriesOrder(intent: PaymentIntentState, checkoutId: string, order: CarriedOrder): boolean {
  const carried = intent.carriedOrder.order;
  return (
    !!carried &&
    JSON.stringify(orderMetadata(checkoutId, carried)) === JSON.stringify(orderMetadata(checkoutId, order))
  );
}

/**
 * The customer changes the address after a payment was started for the verified one. That
 * payment could still be made from another tab, and its order would then go (mail, account) to
 * an address no code has shown; so it is ended first, and a new one starts once the new address
 * is verified. A payment past ending (processing, paid, a konbini voucher) keeps the address.
 */
export async function endPaymentForAddressChange(
  checkout: Checkout,
  email: string,
): Promise<{ ok: true } | { ok: false; status: 409; message: string }> {
  if (!checkout.paymentIntentId || checkout.customerEmail === email) return { ok: true };
  const intent = await paymentProvider().cancelIntent(checkout.paymentIntentId);
  if (intent && (intent.status !== "canceled" || intent.konbini))
    return { ok: false, status: 409, message: PAYMENT_PROCESSING_MESSAGE };
  // The ended intent stays recorded: preparePayment makes its successor (`replaces`).
  return { ok: true };
}

/**
 * The browser is back from paying: ask the provider (never the browser) whether the
 * payment succeeded or a konbini voucher was made, make the order once, log in a new auto-login account, and
 * remember the order for the completion page.
 */
export async function completePayment(
  session: ShopSession,
  intentId: string,
): Promise<{ ok: true; toast: Toast } | { ok: false; message: string }> {
  const intent = await paymentProvider().retrieveIntent(intentId);
  const checkoutId = session.get("checkoutId");
  if (!intent || !checkoutId || intent.checkoutId !== checkoutId)
    return { ok: false, message: "決済情報が見つかりません。" };
  // A konbini voucher is an order too: it waits as 入金待ち until the store payment is reported.
  if (intent.status !== "succeeded" && !intent.konbini) {
    return {
      ok: false,
      message:
        intent.status === "processing"
          ? "決済を処理中です。しばらくしてから再度ご確認ください。"
          : "決済が完了していません。",
    };
  }
  // The same check as the webhook's, in the same function: a payment that does not pay for
  // this checkout (currency, amount) makes no order, whichever path reports it first.
  const made = recordPayment(intent);
  if (!made.ok) return { ok: false, message: PAYMENT_MISMATCH_MESSAGE };
  const { order } = made;
  session.set("lastOrderId", order.id);
  session.unset("checkoutId");
  const checkout = db()
    .select({ createdUserId: checkouts.createdUserId })
    .from(checkouts)
    .where(eq(checkouts.id, checkoutId))
    .get();
  if (checkout?.createdUserId) {
    const user = db().select().from(users).where(eq(users.id, checkout.createdUserId)).get();
    if (user) {
      logIn(session, user);
      return {
        ok: true,
        toast: {
          kind: "success",
          title: "登録が完了し、自動ログインしました",
          description: "ご注文ありがとうございます。",
        },
      };
    }
  }
  return { ok: true, toast: { kind: "success", title: "ご注文ありがとうございます" } };
}
