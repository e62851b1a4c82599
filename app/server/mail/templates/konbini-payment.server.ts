import { formatDateTime, formatDayWithWeekday, formatYen } from "~/lib/rules/format";
import { HOSTED_VOUCHER_LABEL, konbiniSteps } from "~/lib/rules/konbini-steps";
import { renderMail } from "../layout.server";
import {
  discountRows,
  mailLinePrice,
  minimumChargeBlocks,
  type MailOrderLine,
} from "./order-lines-mail.server";

type Line = MailOrderLine;

type KonbiniOrder = {
  customerName: string;
  orderNumber: string;
  contestName: string;
  totalAmount: number;
  statusUrl: string;
};

/**
 * Sent instead of the card order's confirmation when the customer chose to pay at a store:
 * the order and the voucher (what to give at the till, by when). To the verified address only.
 * The steps are the voucher page's (konbiniSteps), so the mail and the page never disagree.
 */
export function konbiniVoucherMail(
  input: KonbiniOrder & {
    bibNumberLabel: string;
    lines: Line[];
    confirmationNumber: string | null;
    dueAt: Date;
    voucherUrl: string | null;
  },
) {
  return renderMail(
    `コンビニでのお支払いのご案内（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: "このたびはご注文いただき、誠にありがとうございます。以下の内容でご注文を承りました。お支払いの期限までに、コンビニエンスストアでお支払いください。",
      },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["大会", input.contestName],
          ...input.lines.map(
            (line, index) =>
              [
                `商品${index + 1}`,
                `${line.category} / ${input.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}（${line.style}）${mailLinePrice(line)}`,
              ] as [string, string],
          ),
          ...discountRows(input.lines),
          ["お支払い金額", formatYen(input.totalAmount)],
        ],
      },
      ...minimumChargeBlocks(input.lines),
      ...(input.confirmationNumber ? [{ text: "確認番号" }, { highlight: input.confirmationNumber }] : []),
      { table: [["お支払い期限", `${formatDateTime(input.dueAt)}（日本時間）`]] },
      {
        text: [
          "【お支払い方法】",
          ...konbiniSteps({ hostedVoucher: input.voucherUrl !== null, due: formatDateTime(input.dueAt) }).map(
            (step, index) => `${index + 1}. ${step}`,
          ),
        ].join("\n"),
      },
      ...(input.voucherUrl ? [{ link: input.voucherUrl, label: HOSTED_VOUCHER_LABEL }] : []),
      { link: input.statusUrl, label: "注文状況の確認" },
    ],
  );
}

/** The store payment came in: the order is now being made, for the promised day. */
export function paymentReceivedMail(input: KonbiniOrder & { promisedDay: string }) {
  return renderMail(`お支払いを確認しました（注文番号 ${input.orderNumber}）`, `${input.customerName} 様`, [
    {
      text: `コンビニでのお支払い（${formatYen(input.totalAmount)}）を確認しました。ありがとうございます。これから動画の制作を始めます。`,
    },
    {
      table: [
        ["注文番号", input.orderNumber],
        ["大会", input.contestName],
      ],
    },
    { link: input.statusUrl, label: "注文状況の確認" },
    {
      text: `お届け予定日は${formatDayWithWeekday(input.promisedDay)}です。動画ができあがりしだい、ダウンロードURLをこのメールアドレスへお送りします。`,
    },
  ]);
}

/** The voucher's deadline passed unpaid: nothing is made and nothing is owed. */
export function paymentExpiredMail(input: KonbiniOrder & { dueAt: Date | null }) {
  return renderMail(
    `お支払い期限が過ぎたため、ご注文を取り消しました（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: `ご注文（注文番号 ${input.orderNumber}）のお支払い期限${input.dueAt ? `（${formatDateTime(input.dueAt)}）` : ""}までにコンビニでのお支払いが確認できなかったため、ご注文を取り消しました。料金は発生しません。`,
      },
      { text: "引き続きご希望の場合は、お手数ですが大会のページからもう一度ご注文ください。" },
      { link: input.statusUrl, label: "注文状況の確認" },
    ],
  );
}
