import { formatYen } from "~/lib/rules/format";
import type { PaymentMethod } from "~/lib/rules/payment-terms";
import { renderMail } from "../layout.server";

type RefundNotice = {
  customerName: string;
  orderNumber: string;
  contestName: string;
  amount: number;
  method: PaymentMethod;
  reason: string;
  /** e.g. 「ゼッケン番号 12 山田 花子・縦」, one per refunded line; empty for a typed amount. */
  lineLabels: string[];
  statusUrl: string;
};

/** When the money arrives depends on how the order was paid: a card's issuer, or a bank transfer. */
export const REFUND_ARRIVAL: Record<RefundNotice["method"], string> = {
  card: "ご利用のクレジットカードへの返金となります。カード会社の処理により、明細に反映されるまで数日から数週間かかる場合があります。",
  konbini:
    "コンビニ払いのご注文のため、銀行振込での返金となります。決済サービス（Stripe）から返金の受け取り方法（振込先口座のご登録）をご案内するメールが届きますので、その案内に沿ってお手続きください。",
};

/** 返金のお知らせ: mailed once the payment service has accepted the refund. */
export function refundMail(input: RefundNotice) {
  return renderMail(`返金のお知らせ（注文番号 ${input.orderNumber}）`, `${input.customerName} 様`, [
    { text: `「${input.contestName}」のご注文について、以下のとおり返金の手続きをいたしました。` },
    {
      table: [
        ["注文番号", input.orderNumber],
        ["返金額", formatYen(input.amount)],
        ...input.lineLabels.map((label): [string, string] => ["対象の動画", label]),
        ["理由", input.reason],
      ],
    },
    { text: REFUND_ARRIVAL[input.method] },
    { link: input.statusUrl, label: "注文状況を確認する" },
  ]);
}

/**
 * To the payer of a stray payment (paid twice, or a payment that could not become an order), once
 * the shop has given it back whole: they may have seen the money leave twice.
 */
export function strayRefundMail(input: {
  amountLabel: string;
  secondPayment: boolean;
  method: PaymentMethod;
}) {
  return renderMail("返金のお知らせ（重複したお支払い）", "お客様", [
    {
      text: input.secondPayment
        ? "同じご注文に対して2回目のお支払いがありましたので、2回目のお支払いの全額を返金いたしました。ご注文はそのまま有効です。"
        : "ご注文として受け付けることができなかったお支払いがありましたので、全額を返金いたしました。",
    },
    { table: [["返金額", input.amountLabel]] },
    { text: REFUND_ARRIVAL[input.method] },
    { text: "ご不明な点がございましたら、このメールに返信してお問い合わせください。" },
  ]);
}
