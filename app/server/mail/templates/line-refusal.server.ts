import { formatYenShort } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

type RefusedLine = {
  customerName: string;
  orderNumber: string;
  contestName: string;
  /** e.g. 「ゼッケン番号 12 山田 花子・縦」 */
  lineLabel: string;
  statusUrl: string;
};

/**
 * お断り: one video of the order cannot be made; the admin's note, and its refund: made in the same
 * step (`refundedAmount`, its 返金のお知らせ follows), or to be arranged by the shop.
 */
export function lineRefusedMail(input: RefusedLine & { note: string; refundedAmount: number | null }) {
  return renderMail(`動画制作のお断りについて（注文番号 ${input.orderNumber}）`, `${input.customerName} 様`, [
    {
      text: `ご注文いただいた「${input.contestName}」の動画のうち、以下の1本は誠に申し訳ございませんが制作することができなくなりました。`,
    },
    {
      table: [
        ["注文番号", input.orderNumber],
        ["動画", input.lineLabel],
      ],
    },
    { text: `ショップからのお知らせ:\n${input.note}` },
    {
      text:
        input.refundedAmount === null
          ? "この動画の代金の返金につきましては、あらためてショップよりご連絡いたします。ほかの動画は通常どおり制作してお届けします。ご迷惑をおかけし、誠に申し訳ございません。"
          : `この動画の代金（${formatYenShort(input.refundedAmount)}）は返金いたします。返金の方法と時期は、「返金のお知らせ」メールでご案内しています。ほかの動画は通常どおり制作してお届けします。ご迷惑をおかけし、誠に申し訳ございません。`,
    },
    { link: input.statusUrl, label: "注文状況を確認する" },
  ]);
}

/** お断り withdrawn (set by mistake, or the video could be made after all): it will be delivered. */
export function lineRefusalWithdrawnMail(input: RefusedLine) {
  return renderMail(
    `動画制作のお断りの取り消しについて（注文番号 ${input.orderNumber}）`,
    `${input.customerName} 様`,
    [
      {
        text: `先にお断りのご連絡をいたしました「${input.contestName}」の以下の動画は、制作できることになりました。ほかの動画とあわせてお届けします。`,
      },
      {
        table: [
          ["注文番号", input.orderNumber],
          ["動画", input.lineLabel],
        ],
      },
      { text: "ご連絡が前後し、ご迷惑をおかけして申し訳ございません。" },
      { link: input.statusUrl, label: "注文状況を確認する" },
    ],
  );
}
