import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DoneMark } from "~/components/icons";
import { MailHelpLinks } from "~/components/MailHelpLinks";

export const meta: MetaFunction = () => [{ title: "会員登録が完了しました | コンテスト動画ショップ" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { fromOrder: new URL(request.url).searchParams.get("from") === "order" };
}

export default function RegistrationSuccess() {
  const { fromOrder } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 text-center sm:py-16">
      <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8">
        <DoneMark />
        <h1 className="mt-4 text-2xl font-bold">会員登録が完了しました</h1>
        <p className="mt-3 text-left text-sm leading-relaxed text-zinc-700">
          ご登録ありがとうございます。ログインすると、購入履歴からいつでもご注文の動画を確認できます。
        </p>
        <div className="mt-6 flex flex-col gap-3">
          {fromOrder ? (
            <Link to="/order-confirmation" className="btn-primary w-full">
              注文確認へ進む
            </Link>
          ) : (
            <Link to="/" className="btn-primary w-full">
              ホームへ戻る
            </Link>
          )}
          <Link
            to={fromOrder ? "/login?redirectTo=/order-confirmation" : "/login"}
            className="btn-secondary w-full"
          >
            ログインする
          </Link>
        </div>
      </div>
      <MailHelpLinks className="mt-6 text-sm" />
    </div>
  );
}
