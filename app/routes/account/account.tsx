import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { PasswordChangeSteps, type PasswordChangeReply } from "~/routes/account/PasswordChangeSteps";
import { loggedInDevices, type LoggedInDevice } from "~/server/accounts/devices.server";
import { endLogins } from "~/server/auth/login/session-login.server";
import { requireUser } from "~/server/auth/users.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";

export const meta: MetaFunction = () => [{ title: "アカウント | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session } = await requireUser(request);
  return { email: user.email, name: user.name, devices: loggedInDevices(user.id, session) };
}

/** 「他の端末からログアウト」: every other session of the account ends; this one stays. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const formData = await readForm(request);
  if (formData.get("intent") !== "log-out-elsewhere")
    return data({ message: "操作を確認できませんでした。もう一度お試しください。" }, { status: 400 });
  const ended = endLogins(user.id, session);
  return redirectWithToast(
    request,
    "/account",
    {
      kind: "success",
      title: "他の端末からログアウトしました",
      description:
        ended > 0 ? `${ended}件のログインを終了しました。` : "ほかにログイン中の端末はありませんでした。",
    },
    { status: 303 },
  );
}

export default function Account() {
  const { email, name, devices } = useLoaderData<typeof loader>();
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
          {/* Only dt and dd inside a dl's row: the change link is a second dd, set beside the first. */}
          <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 px-5 py-4">
            <dt className="text-xs font-semibold text-zinc-500">パスワード</dt>
            <dd className="col-start-1 mt-1 tracking-widest" aria-label="非表示">
              ••••••••
            </dd>
            <dd className="col-start-2 row-span-2 row-start-1">
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
            </dd>
          </div>
        </dl>
      </section>

      <LoggedInDevices devices={devices} />

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
  const busy = useIsPending({ fetcher });
  useEffect(() => {
    if (reply?.done) onDone();
  }, [reply, onDone]);
  return (
    <PasswordChangeSteps
      step={reply?.step ?? "send"}
      email={email}
      reply={reply}
      FormComponent={fetcher.Form}
      busy={busy}
      via="dialog"
    />
  );
}

/** Where this account is logged in, and a way to end every login but this one (a lost phone, a shared PC). */
function LoggedInDevices({ devices }: { devices: LoggedInDevice[] }) {
  const busy = useIsPending({ intent: "log-out-elsewhere" });
  const others = devices.filter((device) => !device.current).length;
  return (
    <section
      aria-labelledby="devices-title"
      className="mt-6 rounded-2xl border border-zinc-200 bg-white shadow-sm"
    >
      <h2 id="devices-title" className="px-5 pt-4 text-base font-bold">
        ログイン中の端末
      </h2>
      <ul className="divide-y divide-zinc-200">
        {devices.map((device, index) => (
          <li key={index} className="px-5 py-3 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{device.device}</span>
              {device.current ? (
                <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700">
                  この端末
                </span>
              ) : null}
              {device.admin ? (
                <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-semibold text-zinc-700">
                  管理画面
                </span>
              ) : null}
            </div>
            <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-zinc-500">
              <span className="whitespace-nowrap">最終利用 {device.lastSeenAt}</span>
              <span className="whitespace-nowrap">ログイン {device.loggedInAt}</span>
              {device.ipAddress ? <span className="whitespace-nowrap">IP {device.ipAddress}</span> : null}
            </p>
          </li>
        ))}
      </ul>
      <Form method="post" className="border-t border-zinc-200 px-5 py-4">
        <p className="text-xs text-zinc-600">
          心当たりのない端末がある場合や、共用のパソコンでログインしたままの場合は、ほかの端末からログアウトしてください。
        </p>
        <button
          type="submit"
          name="intent"
          value="log-out-elsewhere"
          disabled={busy || others === 0}
          className="mt-3 btn-secondary w-full"
        >
          {busy ? "処理中…" : "他の端末からログアウト"}
        </button>
      </Form>
    </section>
  );
}
