import { formatDateTime } from "~/lib/rules/format";
import { saveStepsText } from "~/lib/rules/save-to-phone";
import { renderMail } from "../layout.server";

/**
 * A video's download offered once more (download-retry.server.ts): its 24 hours ended and the
 * shop never saw the whole file reach the parent. Says which video, that it may be downloaded
 * again until the page's end, and repeats how to save it to the phone, where most saves fail.
 */
export function downloadRetryMail(input: {
  customerName: string;
  orderNumber: string;
  contestName: string;
  /** The video as the customer tells it apart (部門 / 番号 名前（スタイル）). */
  video: string;
  url: string;
  expiresAt: Date;
}) {
  const end = formatDateTime(input.expiresAt);
  return renderMail(
    `動画をもう一度ダウンロードできるようにしました（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: `ご注文いただいた「${input.contestName}」の動画のダウンロードが、最後まで完了しないまま24時間が過ぎました。通信が途切れた可能性があるため、もう1回ダウンロードできるようにしました（追加の料金はかかりません）。`,
      },
      { text: `【対象の動画】\n・${input.video}` },
      { link: input.url, label: "ダウンロードページを開く" },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["ダウンロード期限", `${end}（日本時間）`],
        ],
      },
      {
        text: "・今回のダウンロードも1回限りです（開始から24時間以内であれば再開できます）。\n・通信の安定したWi-Fiでのダウンロードをおすすめします。ダウンロードが終わるまでページを閉じずにお待ちください。",
      },
      { text: saveStepsText() },
      { text: "保存できない、見つからないなどの場合は、期限内にお問い合わせください。" },
    ],
  );
}
