import {
  PAYMENT_METHOD_NAMES,
  paymentTerms,
  type PaymentMethod,
  type PaymentTerms,
} from "~/lib/rules/payment-terms";
import { env } from "./env.server";
import { sellerInfo } from "./seller.server";

/** The methods `/payment` offers (PAYMENT_METHODS), in the shop's order. */
export function enabledPaymentMethods(): readonly PaymentMethod[] {
  return env().PAYMENT_METHODS;
}

/** The legal texts' facts about paying, from the shop's settings (see lib/rules/payment-terms.ts). */
export function shopPaymentTerms(): PaymentTerms {
  const config = env();
  return paymentTerms({
    methods: config.PAYMENT_METHODS,
    konbiniDays: config.KONBINI_EXPIRES_AFTER_DAYS,
    deliveryDays: config.DELIVERY_BUSINESS_DAYS,
    paymentProvider: sellerInfo().paymentProvider,
  });
}

/**
 * Why a payment by this method is refused, or null when it is offered: a post naming a method the
 * shop has turned off makes no order, whatever the form said.
 */
export function disabledMethodRefusal(method: PaymentMethod): string | null {
  return enabledPaymentMethods().includes(method)
    ? null
    : `${PAYMENT_METHOD_NAMES[method]}はご利用いただけません。ほかのお支払い方法をお選びください`;
}
