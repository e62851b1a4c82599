import { renderMail } from "../layout.server";

/**
 * Sent instead of a registration code when the address already has an account, so the
 * registration screens never tell anyone else whether it does; only the owner learns it here.
 */
export function accountExistsMail(input: { name: string; loginUrl: string; supportEmail: string }) {
  return renderMail("会員登録のお申し込みについて", `${input.name || "お客様"} 様`, [
    {
      text: "このメールアドレスで会員登録のお申し込みがありましたが、このアドレスのアカウントはすでに登録されています。\n新たな登録は不要です。次のリンクからログインしてください。",
    },
    { link: input.loginUrl, label: "ログインする" },
    {
      text: `パスワードをお忘れの場合は、お手数ですが ${input.supportEmail} までお問い合わせください。\nお心当たりのない場合は、このメールを破棄してください。アカウントの情報は変更されていません。`,
    },
  ]);
}
