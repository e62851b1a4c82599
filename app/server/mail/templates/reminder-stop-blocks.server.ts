import type { MailBlock } from "../layout.server";

/**
 * The end of every reminder mail: the one-click way to stop the order's further reminders (its
 * page asks once more before stopping, so a mail scanner opening the link stops nothing). The
 * mails an order needs (a payment received, a delivery) are not reminders and keep coming.
 */
export function reminderStopBlocks(stopUrl: string): MailBlock[] {
  return [
    {
      text: "このメールは、ご注文についてのお知らせ（お支払い期限・ダウンロード期限の前のご案内）です。このご注文について今後のお知らせが不要な場合は、次のページから停止できます。",
    },
    { link: stopUrl, label: "このご注文のお知らせメールを停止する" },
  ];
}
