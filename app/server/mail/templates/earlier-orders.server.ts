import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/**
 * Sent when the checkout's auto-login made an account for an address that already had orders:
 * those orders join the account only once the owner of the mailbox opens this link (logged in
 * to the account), because the checkout's six-digit code alone does not prove the address.
 */
export function earlierOrdersMail(input: {
  name: string;
  orderCount: number;
  link: string;
  expiresAt: Date;
}) {
  return renderMail("以前のご注文をアカウントに追加できます", `${input.name || "お客様"} 様`, [
    {
      text: `このメールアドレスで、アカウント作成より前のご注文が${input.orderCount}件見つかりました。\n次のリンクを開き、作成したアカウントでログインしたうえで追加すると、購入履歴からご覧いただけるようになります。`,
    },
    { link: input.link, label: "以前のご注文をアカウントに追加する" },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（1回のみ有効）\nこのアカウントの作成にお心当たりのない場合は、リンクを開かないでください。ログイン画面の「パスワードをお忘れの方」からパスワードを再設定すると、アカウントをご自身で管理できます。`,
    },
  ]);
}
