import { renderMail } from "../layout.server";

/** The order status page's link, asked for by number and address on 注文状況の確認. */
export function orderStatusLinkMail(input: { customerName: string; orderNumber: string; statusUrl: string }) {
  return renderMail(`注文状況の確認（注文番号 ${input.orderNumber}）`, `${input.customerName} 様`, [
    {
      text: "注文状況の確認のお申し込みを受け付けました。次のリンクから、ご注文の状況（お支払い・制作・お届け）をご確認いただけます。",
    },
    { link: input.statusUrl, label: "注文状況を確認する" },
    { table: [["注文番号", input.orderNumber]] },
    {
      text: "このリンクはご本人さま専用です。ほかの方と共有しないでください。\nお心当たりのない場合は、このメールを破棄してください。",
    },
  ]);
}
