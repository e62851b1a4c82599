import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";
import { reminderStopBlocks } from "./reminder-stop-blocks.server";

/**
 * A download page's reminder, 7 days and 1 day before it ends, while a video of it was never
 * fetched: which videos wait, the page and its end (a date, true however late the mail goes).
 */
export function downloadReminderMail(input: {
  customerName: string;
  orderNumber: string;
  contestName: string;
  url: string;
  expiresAt: Date;
  /** Each video not yet downloaded, as the customer tells them apart (部門 / 番号 名前（スタイル）). */
  videos: string[];
  stopUrl: string;
}) {
  const end = formatDateTime(input.expiresAt);
  return renderMail(
    `ダウンロード期限（${end}）が近づいています（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: `ご注文いただいた「${input.contestName}」の動画のうち、まだダウンロードされていない動画が${input.videos.length}本あります。ダウンロードページは ${end}（日本時間）に終了し、その後はダウンロードできなくなります。お早めにダウンロードしてください。`,
      },
      { link: input.url, label: "ダウンロードページを開く" },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["ダウンロード期限", `${end}（日本時間）`],
        ],
      },
      {
        text: ["【まだダウンロードされていない動画】", ...input.videos.map((video) => `・${video}`)].join(
          "\n",
        ),
      },
      {
        text: "・各動画のダウンロードは1回限りです（途中で切れた場合は24時間以内であれば再開できます）。\n・保存できない、見つからないなどの場合は、期限内にお問い合わせください。",
      },
      ...reminderStopBlocks(input.stopUrl),
    ],
  );
}
