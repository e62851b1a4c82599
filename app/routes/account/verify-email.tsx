import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { verifyRegistrationLink } from "~/server/accounts/registration.server";
import { DoneMark, ProblemMark } from "~/components/icons";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "メールアドレスの確認 | コンテスト動画ショップ" }];

const REDIRECT_SECONDS = 3;

/** The link in the registration mail: the token makes the account (a GET, so it works from any mail app). */
export function loader({ request }: LoaderFunctionArgs) {
  const result = verifyRegistrationLink(new URL(request.url).searchParams.get("token"));
  return data(result, {
    status: result.ok ? 200 : 400,
    headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}

export default function VerifyEmail() {
  const result = useLoaderData<typeof loader>();
  // Reached by a link within the shop, the page stays on the old screen while the loader checks the token: say so.
  const checking = useIsPending({ state: "loading", to: "/verify-email" });
  const navigate = useNavigate();

  useEffect(() => {
    if (!result.ok) return;
    const timer = window.setTimeout(() => navigate("/login"), REDIRECT_SECONDS * 1000);
    return () => window.clearTimeout(timer);
  }, [result.ok, navigate]);

  if (checking) {
    return (
      <Frame>
        <div role="status" className="flex flex-col items-center gap-4 py-6">
          <span
            aria-hidden="true"
            className="h-10 w-10 animate-spin rounded-full border-4 border-zinc-200 border-t-brand-600"
          />
          <p className="text-zinc-700">メールアドレスを確認しています...</p>
        </div>
      </Frame>
    );
  }

  if (result.ok) {
    return (
      <Frame>
        {/* Without JavaScript the browser moves on by itself; with it, the timer above does. */}
        <noscript>
          <meta httpEquiv="refresh" content={`${REDIRECT_SECONDS};url=/login`} />
        </noscript>
        <DoneMark />
        <h1 className="mt-4 text-2xl font-bold">
          {result.alreadyVerified ? "メールアドレスは確認済みです" : "メールアドレスを確認しました"}
        </h1>
        <p role="status" className="mt-3 text-sm leading-relaxed text-zinc-700">
          会員登録が完了しました。{REDIRECT_SECONDS}秒後にログインページへ移動します。
        </p>
        <Link to="/login" className="mt-6 btn-primary w-full">
          ログインページへ進む
        </Link>
      </Frame>
    );
  }

  return (
    <Frame>
      <ProblemMark />
      <h1 className="mt-4 text-2xl font-bold">メールアドレスを確認できませんでした</h1>
      <p role="alert" className="mt-3 text-sm leading-relaxed text-red-800">
        {result.message}
      </p>
      <div className="mt-6 flex flex-col gap-3">
        <Link to="/register" className="btn-primary w-full">
          もう一度会員登録する
        </Link>
        <Link to="/email-support" className="btn-secondary w-full">
          サポートに問い合わせる
        </Link>
      </div>
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 text-center sm:py-16">
      <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
    </div>
  );
}
