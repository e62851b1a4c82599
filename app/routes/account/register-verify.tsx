import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { AuthCard } from "~/components/AuthCard";
import { CodeInput } from "~/components/CodeInput";
import { registrationCodeSchema } from "~/lib/account-schemas";
import { readForm } from "~/server/http/form.server";
import { resendRegistrationCode, verifyRegistrationCode } from "~/server/accounts/registration.server";
import { commitSession, getSession, type ShopSession } from "~/server/http/session.server";

export const meta: MetaFunction = () => [{ title: "認証コードの入力 | コンテスト動画ショップ" }];

function requireRegistration(session: ShopSession) {
  const registration = session.get("registration");
  if (!registration) throw redirect("/register");
  return registration;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const registration = requireRegistration(await getSession(request));
  return { email: registration.email };
}

type ActionResult = { kind: "error" | "resent"; message: string; at: number };

export async function action({ request }: ActionFunctionArgs) {
  // The body first: answering before it is read resets the connection of a client still sending.
  const formData = await readForm(request);
  const session = await getSession(request);
  const registration = requireRegistration(session);
  const reply = (kind: ActionResult["kind"], message: string, status: number) => data<ActionResult>({ kind, message, at: Date.now() }, { status });

  if (formData.get("intent") === "resend") {
    const sent = await resendRegistrationCode(registration);
    return sent.ok ? reply("resent", "認証コードを再送信しました", 200) : reply("error", sent.message, sent.status);
  }
  const submission = parseWithZod(formData, { schema: registrationCodeSchema });
  if (submission.status !== "success") return reply("error", submission.error?.code?.[0] ?? "6桁の認証コードを入力してください", 400);
  const result = verifyRegistrationCode(registration, submission.value.code);
  if (!result.ok) return reply("error", result.message, result.status);
  session.unset("registration");
  return redirect(registration.fromOrder ? "/registration-success?from=order" : "/registration-success", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

export default function RegisterVerify() {
  const { email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [complete, setComplete] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const onComplete = useCallback((value: boolean) => setComplete(value), []);
  const busy = navigation.state !== "idle";

  return (
    <AuthCard
      title="認証コードの入力"
      lead={
        <p>
          <span className="font-semibold break-all text-zinc-900">{email}</span> に6桁の認証コードをお送りしました。メールに記載のコードを入力するか、メール内のリンクを開いて登録を完了してください。
        </p>
      }
      footer={
        <>
          <p>メールは通常すぐに届きますが、5〜10分ほどかかる場合があります。コードの有効期限は10分です。</p>
          <p>
            <Link to="/email-support" className="text-brand-700 underline">
              メールが届かない場合
            </Link>
            ・
            <Link to="/register" className="text-brand-700 underline">
              メールアドレスを修正する
            </Link>
          </p>
        </>
      }
    >
      <Form method="post">
        <p id="registration-code-label" className="field-label text-center">
          認証コード（6桁）
        </p>
        <CodeInput
          resetKey={String(result?.at ?? "initial")}
          invalid={result?.kind === "error"}
          describedBy="registration-code-label registration-code-message"
          onComplete={onComplete}
        />
        <div id="registration-code-message" aria-live="polite" className="mt-3 min-h-6 text-center text-sm">
          {result ? (
            <p role={result.kind === "error" ? "alert" : "status"} className={result.kind === "error" ? "font-medium text-red-700" : "text-emerald-700"}>
              {result.message}
            </p>
          ) : null}
        </div>
        <button type="submit" name="intent" value="verify" className="btn-primary mt-2 w-full" disabled={busy || (hydrated && !complete)}>
          登録を完了する
        </button>
        <button type="submit" name="intent" value="resend" formNoValidate className="btn-secondary mt-3 w-full" disabled={busy}>
          認証コードを再送信
        </button>
      </Form>
    </AuthCard>
  );
}
