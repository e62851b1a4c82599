import { renderMail } from "../layout.server";

/**
 * Sent instead of a registration code when the address already has an account, so the
 * registration screens never tell anyone else whether it does; only the owner learns it here.
 */
export function accountExistsMail(input: {
  name: string;
  loginUrl: string;
  resetUrl: string;
  supportEmail: string;
}) {
  return renderMail("会員登録のお申し込みについて", `${input.name || "お客様"} 様`, [
    {
      text: "このメールアドレスで会員登録のお申し込みがありましたが、このアドレスのアカウントはすでに登録されています。\n新たな登録は不要です。次のリンクからログインしてください。",
    },
    { link: input.loginUrl, label: "ログインする" },
    { text: "パスワードをお忘れの場合は、次のリンクから再設定できます。" },
    { link: input.resetUrl, label: "パスワードを再設定する" },
    {
      text: `ご不明な点は ${input.supportEmail} までお問い合わせください。お心当たりのない場合は、このメールを破棄してください。アカウントの情報は変更されていません。`,
    },
  ]);
}
