import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CodeStep, type CodeNotice } from "~/components/CodeStep";
import { codeSchema } from "~/lib/schemas/order-schemas";
import { requireCustomer, sendCheckoutCode, verifyCheckoutCode } from "~/server/checkout/steps.server";
import { sellerInfo } from "~/server/core/seller.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { redirectToPage } from "~/server/http/security-headers.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { readForm } from "~/server/http/form.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "メールアドレスの確認 | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const supportEmail = sellerInfo().email;
  // Shown once, right after the checkout was started over; a reload goes on to the new draft's steps.
  const restart = session.get("checkoutRestart");
  if (restart)
    return data(
      { restart, email: null, supportEmail },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  const { email, checkout } = requireCustomer(session);
  if (checkout.emailVerifiedAt) throw redirectToPage("/payment");
  return data({ restart: null, email, supportEmail });
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  const { checkout, orderFormUrl } = requireCustomer(session);
  const formData = await readForm(request);
  const reply = (kind: CodeNotice["kind"], message: string, status: number) =>
    data<CodeNotice>({ kind, message, at: Date.now() }, { status });

  if (formData.get("intent") === "resend") {
    const sent = await sendCheckoutCode(request, checkout);
    return sent.ok
      ? reply("success", "認証コードを再送信しました", 200)
      : reply("error", sent.message, sent.status);
  }
  const submission = parseForm(formData, { schema: codeSchema });
  if (submission.status !== "success") return reply("error", "6桁の認証コードを入力してください", 400);
  const result = verifyCheckoutCode(request, session, checkout, submission.value.code);
  if (!result.ok && result.reason === "restart") {
    // The session now holds the new draft; the page says so once, with the way back.
    session.flash("checkoutRestart", { message: result.message, orderFormUrl });
    throw redirect("/email-verification", { headers: { "Set-Cookie": await commitSession(session) } });
  }
  if (!result.ok) {
    const hint = result.reason === "wrong" ? `（あと${result.remainingAttempts}回）` : "";
    return reply("error", `${result.message}${hint}`, 400);
  }
  return redirectWithToast(request, "/payment", { kind: "success", title: "認証が完了しました" });
}

export default function EmailVerification() {
  const { restart, email, supportEmail } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending();

  if (restart)
    return (
      <div className="mx-auto max-w-lg px-4 py-8 sm:py-12">
        <h1 className="text-2xl font-bold">お手続きを最初からやり直してください</h1>
        <p role="alert" className="mt-4 rounded-2xl border border-red-200 bg-red-50 p-5 text-red-900">
          {restart.message}
        </p>
        <p className="mt-6">
          <Link to={restart.orderFormUrl} className="btn-primary">
            注文フォームに戻る
          </Link>
        </p>
        <p className="mt-6 text-sm text-zinc-600">
          お困りの場合はお問い合わせください:{" "}
          <a href={`mailto:${supportEmail}`} className="text-brand-700 underline">
            {supportEmail}
          </a>
        </p>
      </div>
    );

  return (
    <div className="mx-auto max-w-lg px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold">メールアドレスの確認</h1>
      <p className="mt-3 text-zinc-700">
        <span className="font-semibold break-all">{email}</span>{" "}
        に6桁の認証コードをお送りしました。メールに記載のコードを入力してください。
      </p>

      <CodeStep
        id="code"
        notice={result}
        submitLabel="認証する"
        busy={busy}
        className="mt-6 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
      />
      <section className="mt-6 space-y-2 text-sm text-zinc-600">
        <p>メールは通常すぐに届きますが、5〜10分ほどかかる場合があります。コードの有効期限は10分です。</p>
        <p>
          届かない場合は、迷惑メールフォルダもご確認ください。携帯キャリアのメールをお使いの方は、受信設定をご確認ください。
        </p>
        <p>
          <Link to="/email-support" className="text-brand-700 underline">
            メールが届かない場合のヘルプ
          </Link>
          ・お問い合わせ:{" "}
          <a href={`mailto:${supportEmail}`} className="text-brand-700 underline">
            {supportEmail}
          </a>
        </p>
        <p>
          <Link to="/order-confirmation" className="text-brand-700 underline">
            メールアドレスを修正する
          </Link>
        </p>
      </section>
    </div>
  );
}
