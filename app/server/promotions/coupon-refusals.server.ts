import { formatDateTime, formatYenShort } from "~/lib/rules/format";

/**
 * The reasons a coupon is refused, in the words the confirmation page, the JSON API and the
 * payment step all use. Only the server decides and says them.
 */

export const COUPON_REFUSALS = [
  "unknown",
  "disabled",
  "not_started",
  "expired",
  "used_up",
  "used_by_email",
  "other_contest",
  "below_minimum",
  "nothing_off",
] as const;
export type CouponRefusal = (typeof COUPON_REFUSALS)[number];

/** What the refusal needs to be explained: the coupon's own dates and minimum. */
export type CouponRefusalContext = { validUntil?: Date | null; minTotal?: number };

/** Why a coupon does not apply, said to the customer. The four the shop names first lead: 期限切れ, 使用済み, 対象外の大会, 最低金額. */
export function couponRefusalMessage(reason: CouponRefusal, context: CouponRefusalContext = {}): string {
  switch (reason) {
    // One answer for a code that does not exist, is switched off or has not started: the field
    // must not tell a guesser which codes exist before the shop hands them out.
    case "unknown":
    case "disabled":
    case "not_started":
      return "このクーポンコードはお使いいただけません。入力内容をご確認ください";
    case "expired":
      return context.validUntil
        ? `期限切れ：このクーポンの有効期限（${formatDateTime(context.validUntil)}）を過ぎています`
        : "期限切れ：このクーポンの有効期限を過ぎています";
    case "used_up":
      return "使用済み：このクーポンは利用できる回数の上限に達しました";
    case "used_by_email":
      return "使用済み：このメールアドレスでは、このクーポンをすでにお使いいただいています";
    case "other_contest":
      return "対象外の大会：このクーポンはこの大会のご注文にはお使いいただけません";
    case "below_minimum":
      return `最低金額：このクーポンは合計 ${formatYenShort(context.minTotal ?? 0)}以上のご注文でお使いいただけます`;
    case "nothing_off":
      return "このご注文はすでに最低のお支払い金額のため、このクーポンはお使いいただけません";
  }
}
