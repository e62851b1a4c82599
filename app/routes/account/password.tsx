import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/AuthCard";
import { PasswordChangeSteps, type PasswordChangeReply } from "~/routes/account/PasswordChangeSteps";
import {
  newPasswordSchema,
  passwordChangeCodeSchema,
  passwordChangeStep,
  type PasswordChangeStep,
} from "~/lib/schemas/account-schemas";
import { readForm } from "~/server/http/form.server";
import {
  changePassword,
  isPasswordChangeVerified,
  PASSWORD_CHANGE_MESSAGES,
  sendPasswordChangeCode,
  verifyPasswordChangeCode,
} from "~/server/accounts/password-change.server";
import { commitSession } from "~/server/http/session.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { requireUser } from "~/server/auth/users.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "パスワードの変更 | コンテスト動画ショップ" }];

/** The password change as plain pages (?step=send|verify|change); the dialog on /account posts here too. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session } = await requireUser(request);
  const step = passwordChangeStep(new URL(request.url).searchParams.get("step"));
  if (step === "change" && !isPasswordChangeVerified(session, user))
    throw redirect("/account/password?step=send");
  // Shown once after the page moved on by a redirect, as the dialog shows it with its next step.
  const notice = step === "verify" ? (session.get("passwordChangeNotice") ?? null) : null;
  return data(
    { step, email: user.email, notice },
    notice ? { headers: { "Set-Cookie": await commitSession(session) } } : undefined,
  );
}

export async function action({ request }: ActionFunctionArgs) {
  // The body first: answering before it is read resets the connection of a client still sending.
  const formData = await readForm(request);
  const { user, session } = await requireUser(request);
  const viaDialog = formData.get("via") === "dialog";
  const intent = formData.get("intent");

  const reply = async (
    step: PasswordChangeStep,
    status: number,
    extra: Partial<PasswordChangeReply> = {},
    headers: Record<string, string> = {},
  ) =>
    data<PasswordChangeReply>(
      { step, notice: null, result: null, done: false, ...extra },
      { status, headers: { ...headers, "Set-Cookie": await commitSession(session) } },
    );
  const error = (
    step: PasswordChangeStep,
    status: number,
    message: string,
    headers?: Record<string, string>,
  ) => reply(step, status, { notice: { kind: "error", message, at: Date.now() } }, headers);
  // The page moves on with a redirect (so a reload does not post again); the dialog gets the next step as data.
  const next = async (step: PasswordChangeStep, message?: string) => {
    const notice = message ? { kind: "success" as const, message, at: Date.now() } : null;
    if (viaDialog) return reply(step, 200, notice ? { notice } : {});
    if (notice) session.flash("passwordChangeNotice", notice);
    return redirect(`/account/password?step=${step}`, {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  };

  if (intent === "send" || intent === "resend") {
    const sent = await sendPasswordChangeCode(request, user);
    if (sent.ok)
      return intent === "send"
        ? next("verify", PASSWORD_CHANGE_MESSAGES.sent)
        : reply("verify", 200, {
            notice: { kind: "success", message: "認証コードを再送信しました", at: Date.now() },
          });
    // A code sent less than a minute ago is still good: go on and enter it.
    const step = intent === "resend" || sent.alreadySent ? "verify" : "send";
    return error(step, sent.status, sent.message);
  }

  if (intent === "verify") {
    const submission = parseForm(formData, { schema: passwordChangeCodeSchema });
    if (submission.status !== "success")
      return error("verify", 400, submission.error?.code?.[0] ?? PASSWORD_CHANGE_MESSAGES.wrongCode);
    const verified = verifyPasswordChangeCode(session, user, submission.value.code);
    if (!verified.ok) return error("verify", verified.status, verified.message);
    return next("change");
  }

  if (intent === "change") {
    const submission = parseForm(formData, { schema: newPasswordSchema });
    if (submission.status !== "success")
      return reply("change", 400, {
        result: submission.reply({ hideFields: ["newPassword", "confirmPassword"] }),
      });
    const changed = await changePassword(session, user, submission.value.newPassword);
    // Too busy to hash now: the verified code still holds, so the same step is tried again.
    if (!changed.ok && "retryAfterSeconds" in changed)
      return error("change", changed.status, changed.message, retryAfterHeaders(changed));
    if (!changed.ok) return error("send", changed.status, changed.message);
    session.flash("toast", {
      kind: "success",
      title: PASSWORD_CHANGE_MESSAGES.changed,
      description: "ほかの端末ではログアウトされました。",
    });
    if (viaDialog) return reply("send", 200, { done: true });
    return redirect("/account", { headers: { "Set-Cookie": await commitSession(session) } });
  }

  return error("send", 400, "操作を選択してください");
}

export default function AccountPassword() {
  const { step, email, notice } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const shown: PasswordChangeReply | undefined =
    reply ?? (notice ? { step, notice, result: null, done: false } : undefined);
  const busy = useIsPending();
  return (
    <AuthCard
      title="パスワードの変更"
      footer={
        <p>
          <Link to="/account" className="text-brand-700 underline">
            アカウントへ戻る
          </Link>
        </p>
      }
    >
      <PasswordChangeSteps
        step={shown?.step ?? step}
        email={email}
        reply={shown}
        FormComponent={Form}
        busy={busy}
        via="page"
      />
    </AuthCard>
  );
}
