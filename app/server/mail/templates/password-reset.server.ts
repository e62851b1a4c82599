import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** The one-time link that sets a new password (30 minutes). */
export function passwordResetMail(input: { name: string; link: string; expiresAt: Date }) {
  return renderMail("パスワード再設定のご案内", `${input.name || "お客様"} 様`, [
    {
      text: "パスワード再設定のお申し込みを受け付けました。\n次のリンクを開き、新しいパスワードを設定してください。",
    },
    { link: input.link, label: "新しいパスワードを設定する" },
    {
      text: `有効期限: ${formatDateTime(input.expiresAt)}（30分間・1回のみ有効）\n新しいパスワードを設定すると、すべての端末でログアウトされます。\nお心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。`,
    },
  ]);
}

/**
 * An admin account's password is not reset by a mailed link: with the e-mail second factor,
 * the mailbox alone would then open the back office. The owner learns what to do instead.
 */
export function adminPasswordResetRefusedMail(input: { name: string }) {
  return renderMail("パスワード再設定のお申し込みについて", `${input.name || "管理者"} 様`, [
    {
      text: "このメールアドレスでパスワード再設定のお申し込みがありましたが、管理者アカウントのパスワードはメールのリンクでは再設定できません。\nほかの管理者に依頼するか、ショップのサーバーを管理している担当者にお問い合わせください。",
    },
    { text: "お心当たりのない場合は、このメールを破棄してください。パスワードは変更されていません。" },
  ]);
}
