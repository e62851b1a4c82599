import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { sixDigitCodeSchema } from "~/lib/second-factor-schema";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import {
  authenticatorSetup,
  confirmAuthenticator,
  isAuthenticatorEnabled,
} from "~/server/auth/authenticator-setup.server";
import { commitSession } from "~/server/http/session.server";
import { readForm } from "~/server/http/form.server";

export const meta: MetaFunction = () => [{ title: "2段階認証の設定 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin, session } = await requireAdminPage(request);
  const done = new URL(request.url).searchParams.get("done") === "1";
  const enabled = isAuthenticatorEnabled(admin.id);
  if (done && enabled) return data({ done: true as const, enabled, secret: "", qrCode: "" });
  const setup = await authenticatorSetup(session, admin.email);
  return data(
    { done: false as const, enabled, ...setup },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin, session } = await requireAdminPage(request);
  const submission = parseWithZod(await readForm(request), { schema: sixDigitCodeSchema });
  if (submission.status !== "success")
    return data({ title: "入力エラー", message: "6桁の認証コードを入力してください" }, { status: 400 });
  const confirmed = confirmAuthenticator(session, admin.id, submission.value.code);
  if (!confirmed.ok)
    return data(
      { title: "認証エラー", message: confirmed.message },
      { status: 400, headers: { "Set-Cookie": await commitSession(session) } },
    );
  session.flash("toast", { kind: "success", title: "2段階認証を設定しました" });
  return redirect("/admin/two-factor-setup?done=1", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

export default function TwoFactorSetup() {
  const page = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>();
  const navigation = useNavigation();

  if (page.done) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10 text-center">
        <h1 className="text-2xl font-bold">設定が完了しました</h1>
        <p className="mt-3 text-zinc-700">
          次回のログインから、認証アプリに表示される6桁のコードで2段階認証を行います。
        </p>
        <Link to="/admin" className="mt-8 btn-primary">
          管理画面へ戻る
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-lg px-4 py-8">
      <p className="text-sm">
        <Link to="/admin" className="text-brand-700 underline">
          ← 管理画面へ戻る
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold">認証アプリによる2段階認証</h1>
      {page.enabled ? (
        <p className="mt-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          認証アプリは設定済みです。以下で設定し直すと、以前のアプリのコードは使えなくなります。
        </p>
      ) : null}
      <ol className="mt-5 list-decimal space-y-5 pl-5">
        <li>
          <p>Google Authenticator などの認証アプリで、このQRコードを読み取ってください。</p>
          <img
            src={page.qrCode}
            alt="認証アプリ用のQRコード"
            width={240}
            height={240}
            className="mt-3 rounded-lg border border-zinc-200 bg-white p-2"
          />
          <p className="mt-3 text-sm text-zinc-600">読み取れない場合は、次のキーを手動で入力してください。</p>
          <p
            className="mt-1 rounded-lg bg-zinc-100 px-3 py-2 font-mono text-sm break-all"
            data-testid="totp-secret"
          >
            {page.secret}
          </p>
        </li>
        <li>
          <p>アプリに表示された6桁のコードを入力してください。</p>
          <Form method="post" className="mt-3 space-y-3">
            <label htmlFor="code" className="field-label">
              認証コード（6桁）
            </label>
            <input
              id="code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="field-input font-mono text-xl tracking-[0.4em]"
              aria-invalid={error ? true : undefined}
              aria-describedby="setup-error"
            />
            {error ? (
              <p id="setup-error" role="alert" className="field-error">
                {error.title}: {error.message}
              </p>
            ) : null}
            <button type="submit" className="btn-primary w-full" disabled={navigation.state !== "idle"}>
              確認して有効にする
            </button>
          </Form>
        </li>
      </ol>
    </div>
  );
}
