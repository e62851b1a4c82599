import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { AuthCard } from "~/components/AuthCard";
import { useLockUntil } from "~/components/CountdownDeadline";
import { Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { loginSchema } from "~/lib/schemas/account-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { formatDateTime } from "~/lib/rules/format";
import { currentAdmin } from "~/server/auth/admin-session.server";
import { logInAdmin } from "~/server/auth/login/admin-login.server";
import { loginCookies } from "~/server/auth/login/login.server";
import { checkPassword } from "~/server/auth/login/password-step.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { getSession } from "~/server/http/session.server";

export const meta: MetaFunction = () => [{ title: "管理者ログイン | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await currentAdmin(request)) throw redirect("/admin");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const step = await checkPassword(request, "admin");
  const { submission } = step;
  if (!step.checked)
    return data(
      { result: submission.reply({ hideFields: ["password"] }), warning: null, lockedUntil: null },
      { status: 400 },
    );
  const session = await getSession(request);
  const outcome = logInAdmin(session, step.result);
  if (!outcome.ok) {
    return data(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }),
        warning: outcome.warning,
        lockedUntil: outcome.lockedUntil,
      },
      { status: outcome.status, headers: retryAfterHeaders(outcome) },
    );
  }
  return redirect("/admin-2fa-verify", { headers: await loginCookies(session, step.result) });
}

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const busy = useIsPending();
  const [form, fields] = useShopForm({
    id: "admin-login",
    lastResult: actionData?.result,
    onValidate: validateWith(loginSchema),
  });
  const lockedUntil = actionData?.lockedUntil ?? null;
  const locked = useLockUntil(lockedUntil);

  return (
    <AuthCard title="管理者ログイン" lead="管理画面へのログインには、パスワードと2段階認証が必要です。">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        {locked && lockedUntil !== null ? (
          <FormError
            id={form.errorId}
            errors={form.errors?.slice(0, 1)}
            detail={`ロック解除予定: ${formatDateTime(lockedUntil)}`}
          />
        ) : (
          <FormError id={form.errorId} errors={form.errors} detail={actionData?.warning} />
        )}
        <Field
          label="メールアドレス"
          meta={fields.email}
          type="email"
          inputProps={{ autoComplete: "username" }}
        />
        <Field
          label="パスワード"
          meta={fields.password}
          type="password"
          inputProps={{ autoComplete: "current-password" }}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy || locked}>
          {busy ? "ログイン中..." : "ログイン"}
        </button>
      </Form>
    </AuthCard>
  );
}
