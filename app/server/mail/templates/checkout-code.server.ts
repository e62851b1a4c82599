import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** The six-digit code that proves the customer owns the address the order will be sent to. */
export function checkoutCodeMail(input: { name: string; code: string; expiresAt: Date }) {
  return renderMail("メールアドレス確認コード", `${input.name} 様`, [
    {
      text: "ご注文手続きのメールアドレス確認コードをお送りします。\n注文画面に以下の6桁のコードを入力してください。",
    },
    { highlight: input.code },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（10分間）\nお心当たりのない場合は、このメールを破棄してください。`,
    },
  ]);
}
