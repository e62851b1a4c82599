import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { AuthCard, FormAlert } from "~/components/AuthCard";
import { Field } from "~/components/forms";
import { forgotPasswordSchema } from "~/lib/schemas/account-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { readForm } from "~/server/http/form.server";
import { PASSWORD_RESET_MESSAGES, requestPasswordReset } from "~/server/accounts/password-reset.server";

export const meta: MetaFunction = () => [{ title: "パスワードの再設定 | コンテスト動画ショップ" }];

/**
 * パスワードをお忘れの方: the address to mail a reset link to. The answer is the same page,
 * text and status whether or not the address has an account.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), sent: null }, { status: 400 });
  const requested = requestPasswordReset(request, submission.value.email);
  if (!requested.ok)
    return data(
      { result: submission.reply({ formErrors: [requested.message] }), sent: null },
      { status: 429 },
    );
  return data({ result: submission.reply(), sent: PASSWORD_RESET_MESSAGES.requested });
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const validation = useDeferredValidation("forgotPassword");
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: validation.validate,
  });
  const busy = navigation.state !== "idle";

  return (
    <AuthCard
      title="パスワードの再設定"
      lead="ご登録のメールアドレスを入力してください。パスワードを再設定するためのリンクをお送りします（有効期限30分）。"
      footer={
        <p>
          <Link to="/login" className="text-brand-700 underline">
            ログインへ戻る
          </Link>
          ・
          <Link to="/email-support" className="text-brand-700 underline">
            メールが届かない場合
          </Link>
        </p>
      }
    >
      {actionData?.sent ? (
        <div className="mb-5">
          <FormAlert kind="success">{actionData.sent}</FormAlert>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} onFocus={validation.load} className="space-y-5">
        {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
        <Field
          label="メールアドレス"
          meta={fields.email}
          type="email"
          inputProps={{ autoComplete: "email", inputMode: "email" }}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "送信中..." : "再設定用のリンクを送信"}
        </button>
      </Form>
    </AuthCard>
  );
}
