import { formatDateTime } from "~/lib/format";
import { renderMail } from "../layout.server";

/** The second factor of a login (admins, by mail, unless they use an authenticator app). */
export function loginCodeMail(input: { code: string; expiresAt: Date }) {
  return renderMail("ログイン認証コード", "管理者様", [
    { text: "管理画面へのログインを続けるには、以下の6桁のコードを入力してください。" },
    { highlight: input.code },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（10分間）\nこのログインにお心当たりがない場合は、パスワードを変更し、セキュリティ画面でログイン履歴をご確認ください。`,
    },
  ]);
}
