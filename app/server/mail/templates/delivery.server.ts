import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** The delivery: a link to the order's download page, valid until its expiry. */
export function deliveryMail(input: {
  customerName: string;
  orderNumber: string;
  contestName: string;
  url: string;
  expiresAt: Date;
  videoCount: number;
}) {
  return renderMail(`動画のご用意ができました（注文番号 ${input.orderNumber}）`, `${input.customerName} 様`, [
    {
      text: `お待たせいたしました。ご注文いただいた「${input.contestName}」の動画（${input.videoCount}本）のご用意ができました。以下のページからダウンロードしてください。`,
    },
    { link: input.url, label: "ダウンロードページを開く" },
    {
      table: [
        ["注文番号", input.orderNumber],
        ["ダウンロード期限", formatDateTime(input.expiresAt)],
      ],
    },
    {
      text: "・各動画のダウンロードは1回限りです（途中で切れた場合は24時間以内であれば再開できます）。\n・動画の再配布・転売・SNS等への公開はご遠慮ください。\n・期限内にダウンロードを完了してください。",
    },
  ]);
}
