import { renderMail } from "../layout.server";

type StrayPaymentNotice = {
  paymentIntentId: string;
  amountLabel: string;
  reasonLabel: string;
  detail: string;
  ledgerUrl: string;
};

/** To each admin, once per payment that did not become an order: the money waits for their decision. */
export function strayPaymentMail(input: StrayPaymentNotice) {
  return renderMail(`【要確認】注文にならなかった決済があります（${input.amountLabel}）`, "管理者各位", [
    {
      text: "以下の決済は成功しましたが、注文にはなりませんでした。お客様への返金が必要か確認し、管理画面の「注文にならなかった決済」から返金してください。",
    },
    {
      table: [
        ["決済ID", input.paymentIntentId],
        ["金額", input.amountLabel],
        ["理由", input.reasonLabel],
        ["詳細", input.detail],
      ],
    },
    { link: input.ledgerUrl, label: "注文にならなかった決済を開く" },
  ]);
}
