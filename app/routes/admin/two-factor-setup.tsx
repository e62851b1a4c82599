import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useLockUntil } from "~/components/CountdownDeadline";
import { FieldLabel } from "~/components/forms";
import { formatDateTime } from "~/lib/rules/format";
import { authenticatorConfirmSchema, authenticatorIdentitySchema } from "~/lib/schemas/second-factor-schema";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import {
  AUTHENTICATOR_MESSAGES,
  authenticatorLockedMessage,
  authenticatorState,
  confirmAuthenticator,
  pendingSetupScreen,
  removeAuthenticator,
  sendAuthenticatorChangeCode,
  startAuthenticatorSetup,
  type Refusal,
  type SetupScreen,
} from "~/server/auth/second-factor/authenticator-setup.server";
import { commitSession } from "~/server/http/session.server";
import { readForm } from "~/server/http/form.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "2段階認証の設定 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const done = new URL(request.url).searchParams.get("done") === "1";
  const state = authenticatorState(admin.id);
  return {
    done: done && state.enabled,
    enabled: state.enabled,
    lockedUntil: state.lockedUntil?.getTime() ?? null,
    lockedMessage: state.lockedUntil ? authenticatorLockedMessage(state.lockedUntil) : null,
  };
}

type FieldErrors = { password?: string; code?: string };

/** What a post answers: the identity form again (with messages), or the new app's QR code to scan. */
type Reply =
  | {
      step: "identity";
      kind: "error" | "info";
      message: string | null;
      errors: FieldErrors;
      warning: string | null;
      lockedUntil: number | null;
      /** The code typed, kept when it was not what failed (a wrong password, a missing field). */
      code: string;
    }
  | { step: "scan"; setup: SetupScreen; error: string | null };

function identityReply(status: number, reply: Partial<Omit<Extract<Reply, { step: "identity" }>, "step">>) {
  return data<Reply>(
    {
      step: "identity",
      kind: reply.kind ?? "error",
      message: reply.message ?? null,
      errors: reply.errors ?? {},
      warning: reply.warning ?? null,
      lockedUntil: reply.lockedUntil ?? null,
      code: reply.code ?? "",
    },
    { status },
  );
}

function refused(refusal: Refusal, code = "") {
  return identityReply(refusal.status, {
    code: refusal.field === "password" ? code : "",
    message: refusal.field ? null : refusal.message,
    errors: refusal.field ? { [refusal.field]: refusal.message } : {},
    warning: refusal.warning ?? null,
    lockedUntil: refusal.lockedUntil?.getTime() ?? null,
  });
}

function firstErrors(error: Record<string, string[] | null> | null | undefined): FieldErrors {
  return { password: error?.password?.[0], code: error?.code?.[0] };
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin, session } = await requireAdminPage(request);
  const form = await readForm(request);
  const intent = form.get("intent");

  if (intent === "send-code") {
    const sent = await sendAuthenticatorChangeCode(request, admin);
    if (sent.ok) return identityReply(200, { kind: "info", message: AUTHENTICATOR_MESSAGES.codeSent });
    if ("field" in sent) return refused(sent);
    return identityReply(sent.status, { message: sent.message });
  }

  if (intent === "confirm") {
    const submission = parseForm(form, { schema: authenticatorConfirmSchema });
    const token = form.get("token");
    const setup = typeof token === "string" && token ? await pendingSetupScreen(admin, token) : null;
    if (!setup) return identityReply(409, { message: AUTHENTICATOR_MESSAGES.setupExpired });
    if (submission.status !== "success")
      return data<Reply>(
        { step: "scan", setup, error: "6桁の認証コードを入力してください" },
        { status: 400 },
      );
    const confirmed = confirmAuthenticator(session, admin, submission.value.token, submission.value.code);
    if (!confirmed.ok) {
      if (confirmed.field !== "code") return refused(confirmed);
      return data<Reply>({ step: "scan", setup, error: confirmed.message }, { status: confirmed.status });
    }
    session.flash("toast", { kind: "success", title: "2段階認証を設定しました" });
    // The same session: its login stays when the account's other logins end.
    return redirect("/admin/two-factor-setup?done=1", {
      status: 303,
      headers: { "Set-Cookie": await commitSession(session) },
    });
  }

  if (intent === "start" || intent === "remove") {
    const submission = parseForm(form, { schema: authenticatorIdentitySchema });
    const typed = String(form.get("code") ?? "").slice(0, 6);
    if (submission.status !== "success")
      return identityReply(400, {
        errors: firstErrors(submission.error),
        code: submission.error?.code ? "" : typed,
      });
    if (intent === "start") {
      const started = await startAuthenticatorSetup(request, admin, submission.value);
      if (!started.ok) return refused(started, typed);
      return data<Reply>({ step: "scan", setup: started.setup, error: null });
    }
    const removed = await removeAuthenticator(request, session, admin, submission.value);
    if (!removed.ok) return refused(removed, typed);
    session.flash("toast", { kind: "success", title: "認証アプリの設定を解除しました" });
    return redirect("/admin/two-factor-setup", {
      status: 303,
      headers: { "Set-Cookie": await commitSession(session) },
    });
  }

  return identityReply(400, { message: "操作を選んでください" });
}

export default function TwoFactorSetup() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();

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
          認証アプリは設定済みです。新しいアプリに設定し直すと、以前のアプリのコードは使えなくなります。
        </p>
      ) : (
        <p className="mt-3 text-sm text-zinc-700">
          {"現在は、ログインのたびにメールでお送りする認証コードで2段階認証を行っています。" +
            "認証アプリを設定すると、アプリに表示される6桁のコードでログインできます。"}
        </p>
      )}
      {reply?.step === "scan" ? (
        <ScanStep setup={reply.setup} error={reply.error} />
      ) : (
        <IdentityStep
          enabled={page.enabled}
          reply={reply ?? null}
          lockedUntil={reply?.lockedUntil ?? page.lockedUntil}
          lockedMessage={page.lockedMessage}
        />
      )}
    </div>
  );
}

/** The password and the current second factor, before anything changes. */
function IdentityStep({
  enabled,
  reply,
  lockedUntil,
  lockedMessage,
}: {
  enabled: boolean;
  reply: Extract<Reply, { step: "identity" }> | null;
  lockedUntil: number | null;
  lockedMessage: string | null;
}) {
  const locked = useLockUntil(lockedUntil);
  const busy = useIsPending();
  const message =
    reply?.message != null
      ? { kind: reply.kind, text: reply.message }
      : lockedMessage && !reply
        ? { kind: "error" as const, text: lockedMessage }
        : null;
  return (
    <section className="mt-6 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm">
      <h2 className="font-semibold">本人確認</h2>
      <p className="mt-2 text-sm text-zinc-700">
        {enabled
          ? "設定を変更するには、パスワードと、いま設定されている認証アプリのコードを入力してください。"
          : "設定を変更するには、パスワードと、メールでお送りする認証コードを入力してください。"}
      </p>
      {message ? (
        <p
          role={message.kind === "error" ? "alert" : "status"}
          className={message.kind === "error" ? "field-error mt-3" : "mt-3 text-sm text-emerald-700"}
        >
          {message.text}
        </p>
      ) : null}
      {locked && lockedUntil !== null ? (
        <p className="mt-1 text-sm text-zinc-600">ロック解除予定: {formatDateTime(lockedUntil)}</p>
      ) : null}
      {enabled ? null : (
        <Form method="post" className="mt-4">
          <button
            type="submit"
            name="intent"
            value="send-code"
            className="btn-secondary w-full"
            disabled={locked || busy}
          >
            認証コードを送信
          </button>
        </Form>
      )}
      <Form method="post" className="mt-4 space-y-4">
        <div>
          <FieldLabel htmlFor="password">パスワード</FieldLabel>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            disabled={locked}
            aria-invalid={reply?.errors.password ? true : undefined}
            aria-describedby={reply?.errors.password ? "password-error" : undefined}
            className="field-input"
          />
          {reply?.errors.password ? (
            <p id="password-error" role="alert" className="field-error">
              {reply.errors.password}
            </p>
          ) : null}
        </div>
        <div>
          <FieldLabel htmlFor="current-code">
            {enabled ? "認証アプリのコード（6桁）" : "メールの認証コード（6桁）"}
          </FieldLabel>
          <input
            id="current-code"
            name="code"
            defaultValue={reply?.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            disabled={locked}
            aria-invalid={reply?.errors.code ? true : undefined}
            aria-describedby={reply?.errors.code ? "current-code-error" : undefined}
            className="field-input font-mono text-xl tracking-[0.4em]"
          />
          {reply?.errors.code ? (
            <p id="current-code-error" role="alert" className="field-error">
              {reply.errors.code}
            </p>
          ) : null}
          {reply?.warning ? <p className="mt-1 text-sm text-red-700">{reply.warning}</p> : null}
        </div>
        <button
          type="submit"
          name="intent"
          value="start"
          className="btn-primary w-full"
          disabled={locked || busy}
        >
          {enabled ? "新しい認証アプリを設定する" : "認証アプリを設定する"}
        </button>
        {enabled ? (
          <button
            type="submit"
            name="intent"
            value="remove"
            className="btn-secondary w-full"
            disabled={locked || busy}
          >
            認証アプリの設定を解除する（メールの認証コードに戻す）
          </button>
        ) : null}
      </Form>
    </section>
  );
}

/** The new secret, shown once to the screen that started the setup; its first code confirms it. */
function ScanStep({ setup, error }: { setup: SetupScreen; error: string | null }) {
  const busy = useIsPending();
  return (
    <ol className="mt-5 list-decimal space-y-5 pl-5">
      <li>
        <p>Google Authenticator などの認証アプリで、このQRコードを読み取ってください。</p>
        <img
          src={setup.qrCode}
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
          {setup.secret}
        </p>
      </li>
      <li>
        <p>アプリに表示された6桁のコードを入力してください（15分以内）。</p>
        <Form method="post" className="mt-3 space-y-3">
          <input type="hidden" name="token" value={setup.token} />
          <FieldLabel htmlFor="code">認証コード（6桁）</FieldLabel>
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
              {error}
            </p>
          ) : null}
          <button type="submit" name="intent" value="confirm" className="btn-primary w-full" disabled={busy}>
            確認して有効にする
          </button>
        </Form>
      </li>
    </ol>
  );
}
