import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { FormProps } from "@remix-run/react";
import { useCallback, useState, type ComponentType, type RefAttributes } from "react";
import { FormAlert } from "~/components/AuthCard";
import { FieldError } from "~/components/forms";
import { CodeInput } from "~/components/CodeInput";
import { newPasswordSchema, type PasswordChangeStep } from "~/lib/account-schemas";
import { PASSWORD_HINT } from "~/lib/password-rules";

/** What /account/password answers: the step to show next, a message, and the new-password form's validation. */
export type PasswordChangeReply = {
  step: PasswordChangeStep;
  notice: { kind: "error" | "success"; message: string; at: number } | null;
  result: SubmissionResult<string[]> | null;
  done: boolean;
};

type FormComponent = ComponentType<FormProps & RefAttributes<HTMLFormElement>>;

type Props = {
  step: PasswordChangeStep;
  email: string;
  reply: PasswordChangeReply | undefined;
  /** Remix's <Form> on the page (JS off or on), a fetcher's <Form> in the dialog. */
  FormComponent: FormComponent;
  busy: boolean;
  /** "dialog" asks the action for data instead of redirects. */
  via: "page" | "dialog";
};

const STEP_LABELS: Record<PasswordChangeStep, string> = { send: "コード送信", verify: "コード確認", change: "パスワード設定" };
const ACTION = "/account/password";

/** The three steps of the password change, shared by the page (/account/password) and the dialog on /account. */
export function PasswordChangeSteps({ step, email, reply, FormComponent, busy, via }: Props) {
  const notice = reply?.notice ?? null;
  return (
    <div>
      <ol className="mb-5 grid grid-cols-3 gap-2 text-center text-xs" aria-label="手順">
        {(Object.keys(STEP_LABELS) as PasswordChangeStep[]).map((key, index) => (
          <li
            key={key}
            aria-current={key === step ? "step" : undefined}
            className={`rounded-lg border px-1 py-2 ${key === step ? "border-brand-600 bg-brand-50 font-bold text-brand-800" : "border-zinc-200 text-zinc-500"}`}
          >
            <span className="block text-[11px]">ステップ{index + 1}</span>
            {STEP_LABELS[key]}
          </li>
        ))}
      </ol>
      {step === "send" ? <SendStep email={email} notice={notice} FormComponent={FormComponent} busy={busy} via={via} /> : null}
      {step === "verify" ? <VerifyStep email={email} notice={notice} FormComponent={FormComponent} busy={busy} via={via} /> : null}
      {step === "change" ? <ChangeStep result={reply?.result ?? null} notice={notice} FormComponent={FormComponent} busy={busy} via={via} /> : null}
    </div>
  );
}

type StepProps = { notice: PasswordChangeReply["notice"]; FormComponent: FormComponent; busy: boolean; via: "page" | "dialog" };

function Via({ via }: { via: "page" | "dialog" }) {
  return via === "dialog" ? <input type="hidden" name="via" value="dialog" /> : null;
}

function Notice({ notice, id }: { notice: PasswordChangeReply["notice"]; id?: string }) {
  if (!notice) return null;
  return (
    <FormAlert id={id} kind={notice.kind === "error" ? "error" : "success"}>
      {notice.message}
    </FormAlert>
  );
}

function SendStep({ email, notice, FormComponent, busy, via }: StepProps & { email: string }) {
  return (
    <FormComponent method="post" action={ACTION} className="space-y-4">
      <Via via={via} />
      <Notice notice={notice} />
      <p className="text-sm leading-relaxed text-zinc-700">
        ご本人確認のため、ご登録のメールアドレス <span className="font-semibold break-all text-zinc-900">{email}</span> に6桁の認証コードをお送りします。
      </p>
      <button type="submit" name="intent" value="send" className="btn-primary w-full" disabled={busy}>
        認証コードを送信
      </button>
    </FormComponent>
  );
}

function VerifyStep({ email, notice, FormComponent, busy, via }: StepProps & { email: string }) {
  const [complete, setComplete] = useState(false);
  const onComplete = useCallback((value: boolean) => setComplete(value), []);
  const id = `password-code-${via}`;
  return (
    <FormComponent method="post" action={ACTION} className="space-y-4">
      <Via via={via} />
      <p className="text-sm leading-relaxed text-zinc-700">
        <span className="font-semibold break-all text-zinc-900">{email}</span> にお送りした6桁の認証コードを入力してください。コードの有効期限は10分です。
      </p>
      <div>
        <p id={`${id}-label`} className="field-label text-center">
          認証コード（6桁）
        </p>
        <CodeInput resetKey={String(notice?.at ?? "initial")} invalid={notice?.kind === "error"} describedBy={`${id}-label ${id}-message`} onComplete={onComplete} />
      </div>
      <div id={`${id}-message`} aria-live="polite">
        <Notice notice={notice} />
      </div>
      <button type="submit" name="intent" value="verify" className="btn-primary w-full" disabled={busy || (via === "dialog" && !complete)}>
        認証する
      </button>
      <button type="submit" name="intent" value="resend" className="btn-secondary w-full" disabled={busy}>
        認証コードを再送信
      </button>
    </FormComponent>
  );
}

function ChangeStep({ result, notice, FormComponent, busy, via }: StepProps & { result: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: `new-password-${via}`,
    lastResult: result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPasswordSchema }),
  });
  return (
    <FormComponent method="post" action={ACTION} {...getFormProps(form)} className="space-y-4">
      <Via via={via} />
      <input type="hidden" name="intent" value="change" />
      <Notice notice={notice} />
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <div>
        <label htmlFor={fields.newPassword.id} className="field-label">
          新しいパスワード
        </label>
        <input
          {...getInputProps(fields.newPassword, { type: "password", ariaDescribedBy: `${fields.newPassword.id}-hint` })}
          autoComplete="new-password"
          className="field-input"
        />
        <p id={`${fields.newPassword.id}-hint`} className="mt-1 text-xs text-zinc-500">
          {PASSWORD_HINT}
        </p>
        <FieldError id={fields.newPassword.errorId} errors={fields.newPassword.errors} />
      </div>
      <div>
        <label htmlFor={fields.confirmPassword.id} className="field-label">
          新しいパスワード（確認）
        </label>
        <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" className="field-input" />
        <FieldError id={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors} />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        パスワードを変更
      </button>
    </FormComponent>
  );
}
