import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/**
 * The admin's second factor by mail (unless they use an authenticator app): at login, and
 * before the authenticator is set up, which needs the current second factor too.
 */
export function loginCodeMail(input: {
  code: string;
  expiresAt: Date;
  for?: "login" | "authenticator-change";
}) {
  const change = input.for === "authenticator-change";
  return renderMail(change ? "2段階認証の設定変更の確認コード" : "ログイン認証コード", "管理者様", [
    {
      text: change
        ? "2段階認証（認証アプリ）の設定を変更するには、以下の6桁のコードを入力してください。"
        : "管理画面へのログインを続けるには、以下の6桁のコードを入力してください。",
    },
    { highlight: input.code },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（10分間）\nこの${change ? "操作" : "ログイン"}にお心当たりがない場合は、パスワードを変更し、セキュリティ画面でログイン履歴をご確認ください。`,
    },
  ]);
}
