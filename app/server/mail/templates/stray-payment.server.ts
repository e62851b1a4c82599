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
