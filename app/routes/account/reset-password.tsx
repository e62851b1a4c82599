import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, LinkProblemCard } from "~/components/AuthCard";
import { NewPasswordFields } from "~/components/NewPasswordFields";
import { resetPasswordSchema } from "~/lib/schemas/account-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { readForm } from "~/server/http/form.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { redirectWithToast } from "~/server/http/toast.server";
import {
  checkResetLink,
  PASSWORD_RESET_MESSAGES,
  resetPassword,
} from "~/server/accounts/password-reset.server";
import { FormError } from "~/components/form-messages";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";

export const meta: MetaFunction = () => [{ title: "新しいパスワードの設定 | コンテスト動画ショップ" }];

const HIDDEN = ["password", "confirmPassword"];

/** The page the reset mail's link opens: the link is checked, not used, until the form is sent. */
export function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const link = checkResetLink(token);
  if (!link.ok) return data({ token: null, problem: link.message }, { status: 400 });
  return { token, problem: null };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields: HIDDEN }), problem: null }, { status: 400 });
  const reset = await resetPassword(submission.value.token, submission.value.password);
  if (!reset.ok && "status" in reset)
    // Too many hashes waiting: the link stays good, so the form stays with the message.
    return data(
      { result: submission.reply({ formErrors: [reset.message], hideFields: HIDDEN }), problem: null },
      { status: reset.status, headers: retryAfterHeaders(reset) },
    );
  if (!reset.ok) return data({ result: null, problem: reset.message }, { status: 400 });
  // Not logged in here: logging in with the new password shows it works, and a link opened
  // on someone else's device does not leave a login behind.
  return redirectWithToast(request, "/login", {
    kind: "success",
    title: PASSWORD_RESET_MESSAGES.done,
    description: PASSWORD_RESET_MESSAGES.doneDescription,
  });
}

export default function ResetPassword() {
  const { token, problem: linkProblem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const validation = useDeferredValidation("resetPassword");
  const [form, fields] = useStorefrontForm({
    id: "reset-password",
    lastResult: actionData?.result,
    validate: validation.validate,
  });
  const problem = actionData?.problem ?? linkProblem;
  const busy = useIsPending();

  if (problem || !token) {
    return (
      <LinkProblemCard
        title="パスワードを再設定できません"
        problem={problem}
        advice="お手数ですが、もう一度パスワードの再設定をお申し込みください。"
        links={[
          { to: "/forgot-password", label: "再設定用のリンクをもう一度受け取る" },
          { to: "/login", label: "ログインへ戻る" },
        ]}
      />
    );
  }

  return (
    <AuthCard
      title="新しいパスワードの設定"
      lead="新しいパスワードを入力してください。設定後、すべての端末でログアウトされます。"
    >
      <Form method="post" {...form.props} onFocus={validation.load} className="space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields password={fields.password} confirmation={fields.confirmPassword} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "設定中..." : "パスワードを設定する"}
        </button>
      </Form>
    </AuthCard>
  );
}
