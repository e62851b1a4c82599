import { formatDateTime, formatDayWithWeekday, formatYen } from "~/lib/rules/format";
import { renderMail } from "../layout.server";
import { KONBINI_STORES } from "../../payments/types";

type Line = { category: string; athleteNumber: number; athleteName: string; style: string; price: number };

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
                `${line.category} / ${input.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}（${line.style}）${formatYen(line.price)}`,
              ] as [string, string],
          ),
          ["お支払い金額", formatYen(input.totalAmount)],
        ],
      },
      ...(input.confirmationNumber ? [{ text: "確認番号" }, { highlight: input.confirmationNumber }] : []),
      {
        table: [
          ["お支払い期限", `${formatDateTime(input.dueAt)}（日本時間）`],
          ["お支払いできる店舗", KONBINI_STORES],
        ],
      },
      ...(input.voucherUrl
        ? [{ link: input.voucherUrl, label: "払込票（店舗ごとのお支払い方法）" }]
        : [
            {
              text: "店頭の端末またはレジで「インターネット代金支払い」を選び、確認番号とご登録の電話番号をお伝えください。",
            },
          ]),
      { link: input.statusUrl, label: "注文状況の確認" },
      {
        text: "お支払いを確認しましたらメールでお知らせし、動画の制作を始めます。\n期限までにお支払いがない場合、ご注文は自動的に取り消されます（料金はかかりません）。",
      },
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
