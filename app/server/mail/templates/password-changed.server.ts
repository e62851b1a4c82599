import { formatDateTime } from "~/lib/rules/format";
import { renderMail } from "../layout.server";

/** Tells the owner the password changed, so a change they did not make does not go unnoticed. */
export function passwordChangedMail(input: { name: string; changedAt: Date; supportEmail: string }) {
  return renderMail("パスワードを変更しました", `${input.name || "お客様"} 様`, [
    {
      text: `${formatDateTime(input.changedAt)} にアカウントのパスワードを変更しました。\nほかの端末でのログインはすべて解除されています。新しいパスワードで再度ログインしてください。`,
    },
    { text: `このお手続きにお心当たりのない場合は、至急 ${input.supportEmail} までご連絡ください。` },
  ]);
}
