import { formatDateTime, formatYen } from "~/lib/rules/format";
import { HOSTED_VOUCHER_LABEL, konbiniSteps } from "~/lib/rules/konbini-steps";
import { renderMail } from "../layout.server";
import { reminderStopBlocks } from "./reminder-stop-blocks.server";

/**
 * The konbini voucher's reminder, the day before its deadline: how to pay, the amount, the
 * confirmation number and the deadline, as the voucher mail said them (the same konbiniSteps).
 * The deadline is written as a date, not "明日", so a reminder sent late is still true.
 */
export function konbiniReminderMail(input: {
  customerName: string;
  orderNumber: string;
  contestName: string;
  totalAmount: number;
  confirmationNumber: string | null;
  dueAt: Date;
  voucherUrl: string | null;
  statusUrl: string;
  stopUrl: string;
}) {
  const due = formatDateTime(input.dueAt);
  return renderMail(
    `コンビニでのお支払い期限が近づいています（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: `ご注文（${input.contestName}）のコンビニでのお支払いが、まだ確認できていません。お支払い期限は ${due}（日本時間）です。期限を過ぎるとご注文は自動的に取り消されます。`,
      },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["お支払い金額", formatYen(input.totalAmount)],
          ["お支払い期限", `${due}（日本時間）`],
        ],
      },
      ...(input.confirmationNumber ? [{ text: "確認番号" }, { highlight: input.confirmationNumber }] : []),
      {
        text: [
          "【お支払い方法】",
          ...konbiniSteps({ hostedVoucher: input.voucherUrl !== null, due }).map(
            (step, index) => `${index + 1}. ${step}`,
          ),
        ].join("\n"),
      },
      ...(input.voucherUrl ? [{ link: input.voucherUrl, label: HOSTED_VOUCHER_LABEL }] : []),
      { link: input.statusUrl, label: "注文状況の確認" },
      { text: "すでにお支払いいただいた場合は、行き違いですのでこのメールは破棄してください。" },
      ...reminderStopBlocks(input.stopUrl),
    ],
  );
}
