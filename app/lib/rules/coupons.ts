/**
 * Coupon codes as customers type them, as the confirmation page's and the back-office's forms check
 * them. Why a code is refused is the server's (promotions/coupon-refusals.server.ts).
 */

/** Letters, digits, - and _; 3 to 32 of them once normalised. */
export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

export const COUPON_CODE_FORMAT_MESSAGE =
  "クーポンコードは半角英数字（- と _ も可）3〜32文字で入力してください";

/**
 * What a customer typed, as the code is stored: full-width letters and digits made half-width
 * (NFKC; a Japanese keyboard types ＳＰＲＩＮＧ１０), spaces dropped, upper case.
 */
export function normaliseCouponCode(typed: string): string {
  return typed.normalize("NFKC").replace(/\s+/g, "").toUpperCase();
}
