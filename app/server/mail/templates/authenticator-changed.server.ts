import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

export type AuthenticatorChange = "set-up" | "replaced" | "removed";

const WHAT: Record<AuthenticatorChange, { subject: string; text: string; next: string }> = {
  "set-up": {
    subject: "2段階認証に認証アプリを設定しました",
    text: "2段階認証に認証アプリを設定しました。",
    next: "次回のログインからは、認証アプリに表示される6桁のコードを入力してください。",
  },
  replaced: {
    subject: "2段階認証の認証アプリを変更しました",
    text: "2段階認証の認証アプリを新しいものに変更しました。以前のアプリのコードは使えません。",
    next: "次回のログインからは、新しい認証アプリに表示される6桁のコードを入力してください。",
  },
  removed: {
    subject: "2段階認証の認証アプリを解除しました",
    text: "2段階認証の認証アプリの設定を解除しました。",
    next: "次回のログインからは、メールでお送りする6桁の認証コードを入力してください。",
  },
};

/**
 * Tells the account's owner their second factor changed, so a change they did not make (by
 * someone who had their password and a code) does not go unnoticed.
 */
export function authenticatorChangedMail(input: {
  name: string;
  change: AuthenticatorChange;
  changedAt: Date;
}) {
  const what = WHAT[input.change];
  return renderMail(what.subject, `${input.name || "管理者"} 様`, [
    {
      text: `${formatDateTime(input.changedAt)} に、${what.text}\n${what.next}\nほかの端末でのログインはすべて解除されています。`,
    },
    {
      text: "このお手続きにお心当たりのない場合は、至急パスワードを変更し、セキュリティ画面でログイン履歴をご確認ください。",
    },
  ]);
}
