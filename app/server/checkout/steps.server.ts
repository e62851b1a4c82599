import { redirect } from "@remix-run/node";
import { contestSlug } from "~/lib/rules/slug";
import type { CustomerValues } from "~/lib/schemas/order-schemas";
import { formatDateTime } from "~/lib/rules/format";
import {
  checkoutContest,
  currentCheckout,
  restartCheckout,
  updateCheckout,
  type Checkout,
} from "./draft.server";
import { completeItems, priceItems } from "../promotions/order-pricing.server";
import { checkCoupon } from "../promotions/coupons.server";
import { checkoutCoupon } from "./coupon.server";
import { contestOpen } from "../catalog/contest-access.server";
import { earlyBirdEndedNotice } from "../promotions/ended-promotions.server";
import {
  firstSubjectSince,
  retireCodes,
  verifyCode,
  wrongTries,
  type VerifyResult,
} from "../auth/codes/codes.server";
import {
  countForRequester,
  mailRequester,
  requesterCapState,
  type MailRequester,
  wrongCodeCaps,
} from "../auth/codes/mail-caps.server";
import { sendCodeMail, type SendCodeResult } from "../auth/codes/code-mail.server";
import { LIMIT_MESSAGES } from "../auth/codes/limit-messages.server";
import { now } from "../core/clock.server";
import { confirmedAddressOf } from "../accounts/confirmed-address.server";
import { endPaymentForAddressChange } from "./payment.server";
import { checkoutCodeMail } from "../mail/templates/checkout-code.server";
import { hashPassword, unlessHashingBusy } from "../auth/password.server";
import { hitOriginLimit, hitRateLimit, originLimitKey } from "../http/rate-limit.server";
import type { ShopSession } from "../http/session.server";
import { HOUR_MS, DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * The steps after the order form: confirmation, e-mail code, payment. Each step's
 * loader asks for the checkout in the state it needs and sends the customer back
 * to the right step otherwise.
 */

export type PricedCheckout = NonNullable<ReturnType<typeof pricedCheckout>>;

/** The session's checkout with its contest and server-computed prices, or null when it cannot be ordered as it is. */
export function pricedCheckout(session: ShopSession) {
  const checkout = currentCheckout(session);
  if (!checkout) return null;
  const contest = checkoutContest(checkout);
  // A draft for a contest behind a 合言葉 this session has not entered (or whose code has changed
  // since) is not ordered: every step sends the visitor back to the order form's code.
  if (!contest || !contestOpen(session, contest)) return null;
  const items = completeItems(checkout.items);
  if (items.length === 0 || items.length !== checkout.items.length) return null;
  const at = now();
  const check = checkout.couponCode
    ? checkCoupon(checkout.couponCode, {
        contestId: contest.id,
        checkoutId: checkout.id,
        email: checkout.customerEmail,
        at,
      })
    : null;
  const pricing = priceItems(contest.id, items, { at, coupon: check?.ok ? check.offer : null });
  if (!pricing.ok) return null;
  return {
    checkout,
    contest,
    lines: pricing.lines,
    listTotal: pricing.listTotal,
    total: pricing.total,
    discounts: pricing.discounts,
    coupon: checkoutCoupon(checkout.couponCode, check, pricing.coupon),
    priceChange: earlyBirdEndedNotice(contest.id, items, {
      coupon: check?.ok ? check.offer : null,
      since: checkout.pricedAt ?? checkout.updatedAt ?? checkout.createdAt,
      at,
      total: pricing.total,
    }),
    orderFormUrl: `/order-form/${encodeURIComponent(contestSlug(contest.name))}`,
  };
}

/** For the confirmation and later steps: without a priceable checkout, back to the order form (or home). */
export function requirePricedCheckout(session: ShopSession): PricedCheckout {
  const priced = pricedCheckout(session);
  if (priced) return priced;
  const checkout = currentCheckout(session);
  const contest = checkout ? checkoutContest(checkout) : null;
  throw redirect(contest ? `/order-form/${encodeURIComponent(contestSlug(contest.name))}` : "/");
}

export function requireCustomer(session: ShopSession): PricedCheckout & { email: string; name: string } {
  const priced = requirePricedCheckout(session);
  const { customerEmail, customerName } = priced.checkout;
  if (!customerEmail || !customerName) throw redirect("/order-confirmation");
  return { ...priced, email: customerEmail, name: customerName };
}

export function requireVerifiedCustomer(session: ShopSession) {
  const customer = requireCustomer(session);
  if (!customer.checkout.emailVerifiedAt) throw redirect("/email-verification");
  return customer;
}

/**
 * Wrong e-mail codes allowed, summed over every code a checkout was mailed (resends and
 * address changes bring new codes, not new tries): past them, the checkout starts over. Each
 * code still has its own 5 tries (codes.server.ts).
 */
export const CHECKOUT_CODE_FAILURES = { max: 10 };

/**
 * Wrong checkout codes per address in a UTC day, so a new checkout brings no new tries either
 * (1 in 20,000 guesses a day at one address's codes): counted per requester because a stranger
 * could otherwise spend the address's tries with wrong codes of his own and keep its guest from
 * verifying for a day.
 */
export const ADDRESS_WRONG_CODE_CAPS = wrongCodeCaps("checkout-wrong-code");

export const CHECKOUT_RESTART_MESSAGE =
  "認証コードの入力に続けて失敗したため、このお手続きを中断しました。お手数ですが、注文フォームからもう一度お進みください（お選びいただいた内容はそのまま残っています）。";

function addressBlockedMessage(until: Date): string {
  return `このメールアドレスは認証コードの入力に続けて失敗したため、${formatDateTime(until)} まで確認にお使いいただけません。別のメールアドレスをお使いいただくか、時間をおいてからお試しください。`;
}

/** Who asks for or enters this checkout's code: the caller, reserved when the checkout asked first. */
function checkoutRequester(request: Request, checkout: Checkout, email: string): MailRequester {
  return { ...mailRequester(request), reserved: askedFirst(checkout, email) };
}

/** The wrong codes entered at every code this checkout was mailed. */
function checkoutWrongTries(checkout: Checkout): number {
  return wrongTries("checkout", { subject: checkout.id }).reduce((sum, row) => sum + row.attempts, 0);
}

/**
 * The wrong codes the checkout may still have (the fewer of its own and its requester's at the
 * address), and why its code step is closed once none are left.
 */
function codeTriesLeft(
  checkout: Checkout,
  email: string,
  requester: MailRequester,
): { left: number; closed: string | null } {
  const ownLeft = CHECKOUT_CODE_FAILURES.max - checkoutWrongTries(checkout);
  if (ownLeft <= 0) return { left: 0, closed: CHECKOUT_RESTART_MESSAGE };
  const { left: addressLeft, until } = requesterCapState(ADDRESS_WRONG_CODE_CAPS, email, requester);
  if (until) return { left: 0, closed: addressBlockedMessage(until) };
  return { left: Math.min(ownLeft, addressLeft), closed: null };
}

/**
 * Sends (or resends) the checkout's e-mail code. Limited per checkout (60 s), per IP address,
 * per e-mail address and requester with a total per address (mail-caps.server.ts), and no
 * codes while the address's wrong tries are used up. The checkout that asked for the address's
 * first code of the day is not refused by the total: a flood that starts after the guest cannot
 * take her code away (decision 0022).
 */
export async function sendCheckoutCode(
  request: Request,
  checkout: Checkout,
  options: { force?: boolean } = {},
): Promise<SendCodeResult> {
  const { customerEmail, customerName } = checkout;
  if (!customerEmail || !customerName)
    return { ok: false, status: 429, message: "メールアドレスを入力してください" };
  const requester = checkoutRequester(request, checkout, customerEmail);
  const { closed } = codeTriesLeft(checkout, customerEmail, requester);
  if (closed) return { ok: false, status: 429, message: closed };
  // A code the SMTP server refuses now is still retried until it expires; the customer is told it did not go out.
  return sendCodeMail({
    purpose: "checkout",
    subject: checkout.id,
    to: customerEmail,
    topic: `checkout-code:${checkout.id}`,
    force: options.force,
    requester,
    limits: [
      {
        key: originLimitKey(request, "checkout-code"),
        limit: 30,
        windowMs: HOUR_MS,
        message: LIMIT_MESSAGES.tooManySends,
      },
    ],
    mail: ({ code, expiresAt }) => checkoutCodeMail({ name: customerName, code, expiresAt }),
    messages: {
      tooSoon: (seconds) => `再送信は${seconds}秒後にお試しください`,
      notSent: "認証コードの送信に失敗しました",
    },
    log: "[checkout] code mail failed",
  });
}

/** Whether this checkout asked for the address's first checkout code of the last day (or would now). */
function askedFirst(checkout: Checkout, email: string): boolean {
  const first = firstSubjectSince("checkout", email, new Date(now().getTime() - DAY_MS));
  return first === null || first === checkout.id;
}

/**
 * Auto-login passwords hashed per checkout and per client address in an hour. Each costs a
 * password hash, which anyone can ask for here without an account, so the limits come first;
 * a customer going back and forth on this page sends a few.
 */
export const AUTO_LOGIN_PASSWORD_LIMITS = { perCheckout: 10, perAddress: 30, windowMs: HOUR_MS };

/** The auto-login password's hash, once its limits allow it; else the 429 to answer. */
async function autoLoginPasswordHash(request: Request, checkout: Checkout, password: string) {
  const { perCheckout, perAddress, windowMs } = AUTO_LOGIN_PASSWORD_LIMITS;
  const byCheckout = hitRateLimit(`auto-login-password:${checkout.id}`, perCheckout, windowMs);
  const limited = byCheckout.allowed
    ? hitOriginLimit(request, "auto-login-password", perAddress, windowMs)
    : byCheckout;
  if (!limited.allowed)
    return {
      ok: false as const,
      status: 429 as const,
      message: LIMIT_MESSAGES.tooManySends,
      retryAfterSeconds: limited.retryAfterSeconds,
    };
  return unlessHashingBusy(() => hashPassword(password));
}

/**
 * The address this checkout may go on to payment with, no code asked: the one it has verified,
 * else the logged-in customer's own confirmed account address (`confirmedAddressOf`). Only the
 * session's user counts, never an address the form names, so no code is skipped for a stranger.
 */
export function verifiedAddress(checkout: Checkout, userId: number | null): string | null {
  if (checkout.emailVerifiedAt !== null && checkout.customerEmail) return checkout.customerEmail;
  return userId === null ? null : confirmedAddressOf(userId);
}

/**
 * Saves the customer step. The password for auto-login is hashed here and only the
 * hash is kept. A new address needs a new code; the same, already verified one does not, nor
 * the logged-in customer's confirmed account address (`verifiedAddress`).
 */
export async function saveCustomer(
  request: Request,
  checkout: Checkout,
  values: CustomerValues,
  userId: number | null,
) {
  const email = values.email.toLowerCase();
  const ended = await endPaymentForAddressChange(checkout, email);
  if (!ended.ok) return ended;
  const sameVerifiedEmail = verifiedAddress(checkout, userId) === email;
  const verifiedBefore = checkout.emailVerifiedAt !== null && checkout.customerEmail === email;
  const hashed =
    values.autoLogin && values.password
      ? await autoLoginPasswordHash(request, checkout, values.password)
      : null;
  if (hashed !== null && typeof hashed !== "string") return hashed;
  const updated = updateCheckout(checkout.id, {
    customerEmail: email,
    customerName: values.name,
    autoLogin: values.autoLogin,
    pendingPasswordHash: hashed,
    emailVerifiedAt: verifiedBefore ? checkout.emailVerifiedAt : sameVerifiedEmail ? now() : null,
    // The customer went on from the confirmation page's prices.
    pricedAt: now(),
    status: sameVerifiedEmail ? "verified" : "draft",
  });
  if (sameVerifiedEmail) return { ok: true as const, next: "/payment" };
  const sent = await sendCheckoutCode(request, updated, { force: checkout.customerEmail !== email });
  // A code sent less than a minute ago to the same address is still good: go on and use it.
  if (!sent.ok && !sent.alreadySent) return sent;
  return { ok: true as const, next: "/email-verification" };
}

export type CheckoutCodeResult =
  | VerifyResult
  /** Too many wrong codes: the session now holds a new draft with the same items; back to the order form. */
  | { ok: false; reason: "restart"; message: string };

/**
 * Checks the checkout's code. Every wrong code counts against the checkout and against its
 * requester at the address (`CHECKOUT_CODE_FAILURES`, `ADDRESS_WRONG_CODE_CAPS`); once either
 * has used its tries, the checkout starts over. better-sqlite3 is synchronous, so nothing runs
 * between the count and the check.
 */
export function verifyCheckoutCode(
  request: Request,
  session: ShopSession,
  checkout: Checkout,
  code: string,
): CheckoutCodeResult {
  const email = checkout.customerEmail ?? "";
  const requester = checkoutRequester(request, checkout, email);
  const before = codeTriesLeft(checkout, email, requester);
  if (before.closed) return startOver(session, checkout, before.closed);
  const wrongBefore = checkoutWrongTries(checkout);
  const result = verifyCode("checkout", checkout.id, code);
  if (result.ok) {
    updateCheckout(checkout.id, { emailVerifiedAt: now(), status: "verified" });
    return result;
  }
  if (result.reason === "expired") return result;
  // Only a try the code counted (not one at a code already out of tries) counts at the address.
  const counted = checkoutWrongTries(checkout) - wrongBefore;
  if (counted > 0) countForRequester(ADDRESS_WRONG_CODE_CAPS, email, requester, counted);
  const after = codeTriesLeft(checkout, email, requester);
  if (after.closed) return startOver(session, checkout, after.closed);
  // "あと N 回" tells the tries the checkout has left, which may be fewer than the code's own.
  return result.reason === "wrong"
    ? { ...result, remainingAttempts: Math.min(result.remainingAttempts, after.left) }
    : result;
}

function startOver(session: ShopSession, checkout: Checkout, message: string): CheckoutCodeResult {
  retireCodes("checkout", checkout.id);
  restartCheckout(session, checkout);
  return { ok: false, reason: "restart", message };
}
