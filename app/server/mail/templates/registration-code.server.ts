import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** The code (and the same as a link) that proves the address before the account is made. */
export function registrationCodeMail(input: { name: string; code: string; link: string; expiresAt: Date }) {
  return renderMail("会員登録の認証コード", `${input.name} 様`, [
    {
      text: "会員登録のお申し込みありがとうございます。\n登録画面に以下の6桁の認証コードを入力してください。",
    },
    { highlight: input.code },
    { text: "または、次のリンクを開いても登録を完了できます。" },
    { link: input.link, label: "メールアドレスを確認して登録を完了する" },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（10分間）\nお心当たりのない場合は、このメールを破棄してください。アカウントは作成されません。`,
    },
  ]);
}
