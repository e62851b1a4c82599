import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { Field } from "~/components/forms";
import { MailedLinkRequestCard } from "~/components/MailedLinkRequestCard";
import { MailHelpLinks } from "~/components/MailHelpLinks";
import { forgotPasswordSchema } from "~/lib/schemas/account-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { PASSWORD_RESET_MESSAGES, requestPasswordReset } from "~/server/accounts/password-reset.server";
import { answerMailedLinkRequest } from "~/server/auth/codes/mailed-link-request.server";

export const meta: MetaFunction = () => [{ title: "パスワードの再設定 | コンテスト動画ショップ" }];

/**
 * パスワードをお忘れの方: the address to mail a reset link to. The answer is the same page,
 * text and status whether or not the address has an account.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answerMailedLinkRequest(
    request,
    forgotPasswordSchema,
    (values) => requestPasswordReset(request, values.email),
    PASSWORD_RESET_MESSAGES.requested,
  );
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const validation = useDeferredValidation("forgotPassword");
  const [form, fields] = useStorefrontForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    validate: validation.validate,
  });

  return (
    <MailedLinkRequestCard
      title="パスワードの再設定"
      lead="ご登録のメールアドレスを入力してください。パスワードを再設定するためのリンクをお送りします（有効期限30分）。"
      footer={<MailHelpLinks before={[{ to: "/login", label: "ログインへ戻る" }]} />}
      sent={actionData?.sent}
      form={form}
      onFocus={validation.load}
      submitLabel="再設定用のリンクを送信"
    >
      <Field
        label="メールアドレス"
        meta={fields.email}
        type="email"
        inputProps={{ autoComplete: "email", inputMode: "email" }}
      />
    </MailedLinkRequestCard>
  );
}
