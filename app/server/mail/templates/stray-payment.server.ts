import { renderMail } from "../layout.server";

type StrayPaymentNotice = {
  paymentIntentId: string;
  amountLabel: string;
  reasonLabel: string;
  detail: string;
  ledgerUrl: string;
};

/**
 * To each admin, once per payment that did not become an order. The money is with the shop until
 * an admin gives it back (nothing is refunded automatically), so the mail says so and where to
 * do it; the payment's id is what the payment service's dashboard and the ledger both show.
 */
export function strayPaymentMail(input: StrayPaymentNotice) {
  return renderMail(`【要確認】注文にならなかった決済があります（${input.amountLabel}）`, "管理者各位", [
    {
      text: "次の決済は成功しましたが、注文にはなりませんでした。お支払いはショップが預かったままで、自動では返金されません。",
    },
    {
      table: [
        ["金額", input.amountLabel],
        ["理由", input.reasonLabel],
        ["詳細", input.detail],
        ["決済ID", input.paymentIntentId],
      ],
    },
    {
      text: "内容を確認のうえ、管理画面の「注文にならなかった決済」で「全額返金」を押してください。お客様には、お支払いの方法で全額が返金されます。",
    },
    { link: input.ledgerUrl, label: "注文にならなかった決済を開く" },
  ]);
}

type StrayRefundReport = StrayPaymentNotice & {
  /** The provider's refund (re_…), or the charge (ch_…) whose total refunded did not fit. */
  providerRefundId: string;
};

/**
 * To each admin, once per refund report that fits no order. Nothing was changed in the shop (the
 * order's refunds, receipt and sales are as they were) and there is nothing to give back from the
 * ledger: the admin checks at the payment service's dashboard what really moved.
 */
export function strayRefundReportMail(input: StrayRefundReport) {
  return renderMail(
    `【要確認】注文に記録しなかった返金の報告があります（${input.amountLabel}）`,
    "管理者各位",
    [
      {
        text: "決済サービスから次の返金が報告されましたが、注文の金額や通貨に合わないため、注文の返金としては記録していません。注文の返金額・領収書・売上は変わっていません。",
      },
      {
        table: [
          ["金額", input.amountLabel],
          ["理由", input.reasonLabel],
          ["詳細", input.detail],
          ["返金ID", input.providerRefundId],
          ["決済ID", input.paymentIntentId],
        ],
      },
      {
        text: "決済サービスの管理画面で、この返金が本当に行われたか、どのお支払いのものかを確認してください。",
      },
      { link: input.ledgerUrl, label: "注文にならなかった決済を開く" },
    ],
  );
}
