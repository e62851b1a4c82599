import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** The code that confirms a password change is asked for by the owner of the address. */
export function passwordChangeCodeMail(input: { name: string; code: string; expiresAt: Date }) {
  return renderMail("パスワード変更の認証コード", `${input.name || "お客様"} 様`, [
    { text: "パスワード変更のお手続きを受け付けました。\n画面に以下の6桁の認証コードを入力してください。" },
    { highlight: input.code },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（10分間）\nお心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。`,
    },
  ]);
}
