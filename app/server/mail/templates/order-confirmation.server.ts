import { formatDayWithWeekday, formatYen } from "~/lib/rules/format";
import { renderMail } from "../layout.server";
import {
  discountRows,
  mailLinePrice,
  minimumChargeBlocks,
  type MailOrderLine,
} from "./order-lines-mail.server";

type Line = MailOrderLine;

/** Sent once per order, to the verified address only. */
export function orderConfirmationMail(input: {
  customerName: string;
  orderNumber: string;
  contestName: string;
  bibNumberLabel: string;
  lines: Line[];
  totalAmount: number;
  /** The order status page (注文状況), where the customer follows the order without logging in. */
  statusUrl: string;
  /** The promised delivery day ("2027-05-07", Tokyo). */
  promisedDay: string;
}) {
  return renderMail(
    `ご注文ありがとうございます（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      { text: "このたびはご注文いただき、誠にありがとうございます。以下の内容でご注文を承りました。" },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["大会", input.contestName],
        ],
      },
      ...input.lines.map((line, index) => ({
        table: [
          [
            `商品${index + 1}`,
            `${line.category} / ${input.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}`,
          ],
          ["スタイル", line.style],
          ["価格", mailLinePrice(line)],
        ] as [string, string][],
      })),
      { table: [...discountRows(input.lines), ["合計金額", formatYen(input.totalAmount)]] },
      ...minimumChargeBlocks(input.lines),
      { text: "お支払い・制作・お届けの状況は、次のページからいつでもご確認いただけます。" },
      { link: input.statusUrl, label: "注文状況の確認" },
      {
        text: `動画は受注制作です。お届け予定日は${formatDayWithWeekday(input.promisedDay)}です。できあがりしだい、ダウンロードURLをこのメールアドレスへお送りします。\nデジタル商品のため、ご注文確定後のキャンセル・返品はお受けできません。`,
      },
    ],
  );
}
