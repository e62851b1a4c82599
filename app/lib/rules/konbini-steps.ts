/**
 * How a konbini voucher is paid, written once for the voucher mail and the voucher on the
 * payment-complete and order status pages, so they never disagree. What is said follows Stripe's
 * konbini: the customer gives a store's payment code and the confirmation number at the store
 * (each store's code and steps are on Stripe's hosted voucher page); the shop collects no phone
 * number, so none is asked for. The test provider (テストモード) has no hosted page, only its number.
 */

/** The stores a konbini voucher is paid at (Stripe's konbini: these four chains). */
export const KONBINI_STORES = "ファミリーマート・ローソン・ミニストップ・セイコーマート";

/** What the link to Stripe's hosted voucher says, wherever it is shown. */
export const HOSTED_VOUCHER_LABEL = "払込票を開く（店舗ごとのお支払い番号と手順）";

/**
 * The steps, in order. `hostedVoucher`: Stripe gave its voucher page (linked beside the steps);
 * `due`: the deadline as shown to the customer (Japan time).
 */
export function konbiniSteps({ hostedVoucher, due }: { hostedVoucher: boolean; due: string }): string[] {
  return [
    ...(hostedVoucher
      ? [
          "払込票（決済サービス Stripe のページ）を開き、お支払いになる店舗を選んでください。その店舗で使うお支払い番号と確認番号、店頭での手順が表示されます。",
          `${KONBINI_STORES}のいずれかの店頭の端末またはレジで番号を入力し、お支払い期限（${due}（日本時間））までに代金をお支払いください。`,
        ]
      : [
          `${KONBINI_STORES}のいずれかの店頭の端末またはレジで「インターネット代金支払い」を選び、確認番号をお伝えください。`,
          `お支払い期限（${due}（日本時間））までに代金をお支払いください。`,
        ]),
    "お支払い後、制作を開始します（お支払いを確認しましたらメールでお知らせします）。",
    "期限までにお支払いがない場合、ご注文は自動的に取り消されます（料金はかかりません）。",
  ];
}
