import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { CountdownDeadline, useLockUntil } from "~/components/CountdownDeadline";
import { FieldLabel } from "~/components/forms";
import { formatDateTime } from "~/lib/rules/format";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { sixDigitCodeSchema } from "~/lib/schemas/second-factor-schema";
import { readForm } from "~/server/http/form.server";
import { logOut } from "~/server/auth/login/session-login.server";
import {
  enterSecondFactorCode,
  ensureLoginCodeSent,
  resendSecondFactor,
  secondFactorLockedMessage,
  secondFactorState,
} from "~/server/auth/second-factor/second-factor.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "2段階認証 | コンテスト動画ショップ" }];

const EXPIRED = {
  kind: "error" as const,
  title: "認証コードの有効期限が切れました",
  description: "もう一度ログインしてください。",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const state = secondFactorState(session);
  if (state.status !== "pending") {
    logOut(session, "pending-second-factor");
    if (state.status === "expired") session.flash("toast", EXPIRED);
    throw redirect("/admin-login", { headers: { "Set-Cookie": await commitSession(session) } });
  }
  const notSent = await ensureLoginCodeSent(session);
  return {
    mode: state.mode,
    email: state.email,
    deadline: state.expiresAt.toISOString(),
    lockedUntil: state.lockedUntil?.getTime() ?? null,
    pageMessage: state.lockedUntil ? secondFactorLockedMessage(state.lockedUntil) : notSent,
  };
}

type Result = {
  kind: "error" | "info";
  message: string;
  warning?: string | null;
  lockedUntil?: number | null;
  at: number;
};

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  const formData = await readForm(request);
  const headers = async () => ({ "Set-Cookie": await commitSession(session) });
  const reply = async (
    kind: Result["kind"],
    message: string,
    status: number,
    extra: Pick<Result, "warning" | "lockedUntil"> = {},
  ) => data<Result>({ kind, message, ...extra, at: Date.now() }, { status, headers: await headers() });

  if (formData.get("intent") === "resend") {
    const resent = await resendSecondFactor(session);
    if (resent.ok) return reply("info", resent.message, 200);
    return reply("error", resent.message, resent.status, {
      lockedUntil: resent.lockedUntil?.getTime() ?? null,
    });
  }
  const submission = parseForm(formData, { schema: sixDigitCodeSchema });
  if (submission.status !== "success") return reply("error", "6桁の認証コードを入力してください", 400);
  const result = enterSecondFactorCode(request, session, submission.value.code);
  if (!result.ok) {
    if (result.reason === "expired") {
      session.flash("toast", { kind: "error", title: "認証に失敗しました", description: result.message });
      return redirect("/admin-login", { headers: await headers() });
    }
    if (result.reason === "locked")
      return reply("error", result.message, 423, { lockedUntil: result.lockedUntil.getTime() });
    return reply("error", result.message, 401, { warning: result.warning });
  }
  session.flash("toast", { kind: "success", title: "ログインしました" });
  return redirect(result.user.isAdmin ? "/admin" : result.redirectTo, { headers: await headers() });
}

export default function AdminSecondFactor() {
  const loaded = useLoaderData<typeof loader>();
  const { mode, email, deadline } = loaded;
  const result = useActionData<typeof action>();
  // The lock as the last answer gave it, else as the page was loaded with it.
  const lockedUntil = result?.lockedUntil ?? loaded.lockedUntil;
  const locked = useLockUntil(lockedUntil);
  const message = result ?? (loaded.pageMessage ? { kind: "error", message: loaded.pageMessage } : null);
  const busy = useIsPending();
  const navigate = useNavigate();
  const [code, setCode] = useState("");
  const hydrated = useHydrated();
  useEffect(() => setCode(""), [result?.at]);
  // At zero the page reloads; the server sees the expiry and sends the admin back to login.
  const onExpire = useCallback(() => navigate(".", { replace: true }), [navigate]);

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-2xl font-bold">2段階認証</h1>
      <p className="mt-3 text-zinc-700">
        {mode === "totp" ? (
          "認証アプリに表示されている6桁のコードを入力してください。"
        ) : (
          <>
            <span className="font-semibold break-all">{email}</span>{" "}
            に送信した6桁の認証コードを入力してください。
          </>
        )}
      </p>
      <Form
        method="post"
        className="mt-6 space-y-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
      >
        {locked && lockedUntil !== null ? (
          <p className="text-sm text-zinc-600">ロック解除予定: {formatDateTime(lockedUntil)}</p>
        ) : (
          <CountdownDeadline key={deadline} deadline={deadline} onExpire={onExpire} />
        )}
        <div>
          <FieldLabel htmlFor="code">認証コード（6桁）</FieldLabel>
          <input
            id="code"
            name="code"
            value={hydrated ? code : undefined}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, "").slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            disabled={locked}
            aria-invalid={message?.kind === "error" || undefined}
            aria-describedby="code-message"
            className="field-input text-center font-mono text-2xl tracking-[0.5em]"
          />
          <div id="code-message" aria-live="polite">
            {message ? (
              <p
                role={message.kind === "error" ? "alert" : "status"}
                className={message.kind === "error" ? "field-error" : "mt-1 text-sm text-emerald-700"}
              >
                {message.message}
              </p>
            ) : null}
            {result?.warning ? <p className="mt-1 text-sm text-red-700">{result.warning}</p> : null}
          </div>
        </div>
        <button
          type="submit"
          name="intent"
          value="verify"
          className="btn-primary w-full"
          disabled={locked || busy || (hydrated && code.length !== 6)}
        >
          認証する
        </button>
        {mode === "email" ? (
          <button
            type="submit"
            name="intent"
            value="resend"
            formNoValidate
            className="btn-secondary w-full"
            disabled={locked || busy}
          >
            認証コードを再送信
          </button>
        ) : null}
      </Form>
    </div>
  );
}
