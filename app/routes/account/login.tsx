import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/AuthCard";
import { useLockUntil } from "~/lib/hooks/use-seconds-left";
import { Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { MailHelpLinks } from "~/components/MailHelpLinks";
import { STRONG_PASSWORD_HINT } from "~/lib/rules/password-rules";
import { safeRedirect } from "~/lib/rules/safe-redirect";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { checkPassword } from "~/server/auth/login/password-step.server";
import { loginCookies, logInCustomer } from "~/server/auth/login/login.server";
import { getSession } from "~/server/http/session.server";
import { getCurrentUser } from "~/server/auth/users.server";

export const meta: MetaFunction = () => [{ title: "ログイン | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (await getCurrentUser(request)) throw redirect(safeRedirect(redirectTo, "/"));
  return { redirectTo: safeRedirect(redirectTo, "") };
}

export async function action({ request }: ActionFunctionArgs) {
  const step = await checkPassword(request, "customer");
  const { submission } = step;
  if (!step.checked) {
    return data(
      { result: submission.reply({ hideFields: ["password"] }), warning: null, lockedUntil: null },
      { status: 400 },
    );
  }
  const session = await getSession(request);
  const login = logInCustomer(session, step.values, step.result);
  if (!login.ok) {
    return data(
      {
        result: submission.reply({ formErrors: [login.message], hideFields: ["password"] }),
        warning: login.reason === "invalid" ? login.warning : null,
        lockedUntil: login.reason === "locked" ? login.lockedUntil.getTime() : null,
      },
      {
        status: login.status,
        headers: login.reason === "blocked" ? { "Retry-After": String(login.retryAfterSeconds) } : undefined,
      },
    );
  }
  if (!login.secondFactor) session.flash("toast", { kind: "success", title: "ログインしました" });
  return redirect(login.redirectTo, { headers: await loginCookies(session, step.result) });
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const validation = useDeferredValidation("login");
  const [form, fields] = useStorefrontForm({
    id: "login",
    lastResult: actionData?.result,
    validate: validation.validate,
  });
  const lockedUntil = actionData?.lockedUntil ?? null;
  const locked = useLockUntil(lockedUntil);
  const busy = useIsPending();

  return (
    <AuthCard
      title="ログイン"
      footer={
        <>
          <p>
            はじめてご利用の方は{" "}
            <Link to="/register" className="font-semibold text-brand-700 underline">
              新規会員登録
            </Link>
          </p>
          <MailHelpLinks contact />
        </>
      }
    >
      <Form method="post" {...form.props} onFocus={validation.load} className="space-y-5">
        <FormError id={form.errorId} errors={form.errors} detail={actionData?.warning} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label="メールアドレス"
          meta={fields.email}
          type="email"
          inputProps={{ autoComplete: "email", inputMode: "email" }}
        />
        <Field
          label="パスワード"
          meta={fields.password}
          type="password"
          hint={STRONG_PASSWORD_HINT}
          inputProps={{ autoComplete: "current-password" }}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy || locked}>
          {busy ? "ログイン中..." : "ログイン"}
        </button>
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="text-brand-700 underline">
            パスワードをお忘れの方
          </Link>
        </p>
      </Form>
    </AuthCard>
  );
}
