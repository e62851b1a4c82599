import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/AuthCard";
import { CodeStep, type CodeNotice } from "~/components/CodeStep";
import { registrationCodeSchema } from "~/lib/schemas/account-schemas";
import { readForm } from "~/server/http/form.server";
import { resendRegistrationCode, verifyRegistrationCode } from "~/server/accounts/registration.server";
import { commitSession, getSession, type ShopSession } from "~/server/http/session.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { MailHelpLinks } from "~/components/MailHelpLinks";

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

export async function action({ request }: ActionFunctionArgs) {
  // The body first: answering before it is read resets the connection of a client still sending.
  const formData = await readForm(request);
  const session = await getSession(request);
  const registration = requireRegistration(session);
  const reply = (kind: CodeNotice["kind"], message: string, status: number) =>
    data<CodeNotice>({ kind, message, at: Date.now() }, { status });

  if (formData.get("intent") === "resend") {
    const sent = await resendRegistrationCode(registration, request);
    return sent.ok
      ? reply("success", "認証コードを再送信しました", 200)
      : reply("error", sent.message, sent.status);
  }
  const submission = parseForm(formData, { schema: registrationCodeSchema });
  if (submission.status !== "success")
    return reply("error", submission.error?.code?.[0] ?? "6桁の認証コードを入力してください", 400);
  const result = verifyRegistrationCode(registration, submission.value.code, request);
  if (!result.ok) return reply("error", result.message, result.status);
  session.unset("registration");
  return redirect(registration.fromOrder ? "/registration-success?from=order" : "/registration-success", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

export default function RegisterVerify() {
  const { email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending();

  return (
    <AuthCard
      title="認証コードの入力"
      lead={
        <p>
          <span className="font-semibold break-all text-zinc-900">{email}</span>{" "}
          に6桁の認証コードをお送りしました。メールに記載のコードを入力するか、メール内のリンクを開いて登録を完了してください。
        </p>
      }
      footer={
        <>
          <p>メールは通常すぐに届きますが、5〜10分ほどかかる場合があります。コードの有効期限は10分です。</p>
          <MailHelpLinks after={[{ to: "/register", label: "メールアドレスを修正する" }]} />
        </>
      }
    >
      <CodeStep
        id="registration-code"
        label="認証コード（6桁）"
        notice={result}
        submitLabel="登録を完了する"
        busy={busy}
      />
    </AuthCard>
  );
}
