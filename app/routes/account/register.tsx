import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/AuthCard";
import { CheckboxField, Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { MailHelpLinks } from "~/components/MailHelpLinks";
import { registerSchema } from "~/lib/schemas/account-schemas";
import { PASSWORD_HINT } from "~/lib/rules/password-rules";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { readForm } from "~/server/http/form.server";
import { startRegistrationFrom } from "~/server/accounts/registration.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { getCurrentUser } from "~/server/auth/users.server";

export const meta: MetaFunction = () => [{ title: "新規会員登録 | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getCurrentUser(request)) throw redirect("/account");
  return { fromOrder: new URL(request.url).searchParams.get("from") === "order" };
}

const HIDDEN = ["password", "confirmPassword"];

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: registerSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN }), { status: 400 });
  const started = await startRegistrationFrom(request, submission.value);
  if (!started.ok)
    return data(submission.reply({ formErrors: [started.message], hideFields: HIDDEN }), {
      status: started.status,
      headers: retryAfterHeaders(started),
    });
  const session = await getSession(request);
  session.set("registration", started.registration);
  return redirect("/register/verify", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Register() {
  const { fromOrder } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const validation = useDeferredValidation("register");
  const [form, fields] = useStorefrontForm({ id: "register", lastResult, validate: validation.validate });
  const busy = useIsPending();

  return (
    <AuthCard
      title="新規会員登録"
      lead="会員登録すると、購入履歴からいつでもご注文の動画を確認できます。ご登録のメールアドレスに6桁の認証コードをお送りします。"
      footer={
        <>
          <p>
            すでにアカウントをお持ちの方は{" "}
            <Link to="/login" className="font-semibold text-brand-700 underline">
              ログイン
            </Link>
          </p>
          <MailHelpLinks />
        </>
      }
    >
      <Form method="post" {...form.props} onFocus={validation.load} className="space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        {fromOrder ? <input type="hidden" name="from" value="order" /> : null}
        <Field label="お名前" meta={fields.name} type="text" inputProps={{ autoComplete: "name" }} />
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
          hint={PASSWORD_HINT}
          inputProps={{ autoComplete: "new-password" }}
        />
        <Field
          label="パスワード（確認）"
          meta={fields.confirmPassword}
          type="password"
          inputProps={{ autoComplete: "new-password" }}
        />

        {/* The honeypot: off-screen and skipped by keyboard and screen readers; bots fill it. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor="register-website">ウェブサイト（入力しないでください）</label>
          <input
            id="register-website"
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>

        <CheckboxField
          meta={fields.agreesToTerms}
          label={
            <>
              <a
                href="/terms"
                target="_blank"
                rel="noopener"
                className="font-semibold text-brand-700 underline"
              >
                利用規約
              </a>
              と
              <a
                href="/privacy"
                target="_blank"
                rel="noopener"
                className="font-semibold text-brand-700 underline"
              >
                プライバシーポリシー
              </a>
              に同意します
            </>
          }
        />

        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "送信中..." : "認証コードを送信"}
        </button>
      </Form>
    </AuthCard>
  );
}
