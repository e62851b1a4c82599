import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { PasswordChangeSteps, type PasswordChangeReply } from "~/routes/account/PasswordChangeSteps";
import { requireUser } from "~/server/auth/users.server";

export const meta: MetaFunction = () => [{ title: "アカウント | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  return { email: user.email, name: user.name };
}

export default function Account() {
  const { email, name } = useLoaderData<typeof loader>();
  const dialog = useRef<HTMLDialogElement>(null);
  // A new key each time the dialog closes: its steps start again from the first.
  const [dialogKey, setDialogKey] = useState(0);
  // Without JavaScript the change link goes to /account/password; the dialog exists only once hydrated.
  const hydrated = useHydrated();

  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold">アカウント</h1>
      <section
        aria-labelledby="account-info"
        className="mt-6 rounded-2xl border border-zinc-200 bg-white shadow-sm"
      >
        <h2 id="account-info" className="sr-only">
          登録情報
        </h2>
        <dl className="divide-y divide-zinc-200">
          {name ? (
            <div className="px-5 py-4">
              <dt className="text-xs font-semibold text-zinc-500">お名前</dt>
              <dd className="mt-1 break-all">{name}</dd>
            </div>
          ) : null}
          <div className="px-5 py-4">
            <dt className="text-xs font-semibold text-zinc-500">メールアドレス</dt>
            <dd className="mt-1 break-all">{email}</dd>
          </div>
          <div className="flex items-center justify-between gap-4 px-5 py-4">
            <div>
              <dt className="text-xs font-semibold text-zinc-500">パスワード</dt>
              <dd className="mt-1 tracking-widest" aria-label="非表示">
                ••••••••
              </dd>
            </div>
            <Link
              to="/account/password"
              className="btn-secondary min-h-10 px-4 py-1.5 text-sm"
              aria-label="パスワードを変更"
              onClick={(event) => {
                if (!dialog.current?.showModal) return;
                event.preventDefault();
                dialog.current.showModal();
              }}
            >
              変更
            </Link>
          </div>
        </dl>
      </section>

      <div className="mt-6 flex flex-col gap-3">
        <Link to="/purchase-history" className="btn-primary w-full">
          購入履歴
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="btn-secondary w-full">
            ログアウト
          </button>
        </Form>
      </div>

      {hydrated ? (
        <dialog
          ref={dialog}
          aria-labelledby="password-dialog-title"
          onClose={() => setDialogKey((key) => key + 1)}
          className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-2xl bg-white p-0 shadow-xl backdrop:bg-black/50"
        >
          <div className="p-5 sm:p-6">
            <div className="mb-4 flex items-start justify-between gap-4">
              <h2 id="password-dialog-title" className="text-xl font-bold">
                パスワードの変更
              </h2>
              <button
                type="button"
                onClick={() => dialog.current?.close()}
                className="-mt-1 -mr-2 rounded-lg p-2 text-zinc-500 hover:bg-zinc-100"
                aria-label="閉じる"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
                  <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
                </svg>
              </button>
            </div>
            <PasswordChangeDialogSteps key={dialogKey} email={email} onDone={() => dialog.current?.close()} />
          </div>
        </dialog>
      ) : null}
    </div>
  );
}

function PasswordChangeDialogSteps({ email, onDone }: { email: string; onDone: () => void }) {
  const fetcher = useFetcher<PasswordChangeReply>();
  const reply = fetcher.data;
  useEffect(() => {
    if (reply?.done) onDone();
  }, [reply, onDone]);
  return (
    <PasswordChangeSteps
      step={reply?.step ?? "send"}
      email={email}
      reply={reply}
      FormComponent={fetcher.Form}
      busy={fetcher.state !== "idle"}
      via="dialog"
    />
  );
}
