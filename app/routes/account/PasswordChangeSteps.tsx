import type { SubmissionResult } from "@conform-to/react";
import type { FormProps } from "@remix-run/react";
import type { ComponentType, RefAttributes } from "react";
import { FormError, FormNotice } from "~/components/form-messages";
import { CodeStep, type CodeNotice } from "~/components/CodeStep";
import { NewPasswordFields } from "~/components/NewPasswordFields";
import type { PasswordChangeStep } from "~/lib/schemas/account-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";

/** What /account/password answers: the step to show next, a message, and the new-password form's validation. */
export type PasswordChangeReply = {
  step: PasswordChangeStep;
  notice: CodeNotice | null;
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

const STEP_LABELS: Record<PasswordChangeStep, string> = {
  send: "コード送信",
  verify: "コード確認",
  change: "パスワード設定",
};
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
      {step === "send" ? (
        <SendStep email={email} notice={notice} FormComponent={FormComponent} busy={busy} via={via} />
      ) : null}
      {step === "verify" ? (
        <VerifyStep email={email} notice={notice} FormComponent={FormComponent} busy={busy} via={via} />
      ) : null}
      {step === "change" ? (
        <ChangeStep
          result={reply?.result ?? null}
          notice={notice}
          FormComponent={FormComponent}
          busy={busy}
          via={via}
        />
      ) : null}
    </div>
  );
}

type StepProps = {
  notice: PasswordChangeReply["notice"];
  FormComponent: FormComponent;
  busy: boolean;
  via: "page" | "dialog";
};

function Via({ via }: { via: "page" | "dialog" }) {
  return via === "dialog" ? <input type="hidden" name="via" value="dialog" /> : null;
}

function Notice({ notice, id }: { notice: PasswordChangeReply["notice"]; id?: string }) {
  if (!notice) return null;
  return notice.kind === "error" ? (
    <FormError id={id} errors={[notice.message]} />
  ) : (
    <FormNotice id={id} kind="success">
      {notice.message}
    </FormNotice>
  );
}

function SendStep({ email, notice, FormComponent, busy, via }: StepProps & { email: string }) {
  return (
    <FormComponent method="post" action={ACTION} className="space-y-4">
      <Via via={via} />
      <Notice notice={notice} />
      <p className="text-sm leading-relaxed text-zinc-700">
        ご本人確認のため、ご登録のメールアドレス{" "}
        <span className="font-semibold break-all text-zinc-900">{email}</span>{" "}
        に6桁の認証コードをお送りします。
      </p>
      <button type="submit" name="intent" value="send" className="btn-primary w-full" disabled={busy}>
        認証コードを送信
      </button>
    </FormComponent>
  );
}

function VerifyStep({ email, notice, FormComponent, busy, via }: StepProps & { email: string }) {
  return (
    <CodeStep
      id={`password-code-${via}`}
      label="認証コード（6桁）"
      notice={notice}
      submitLabel="認証する"
      busy={busy}
      FormComponent={FormComponent}
      action={ACTION}
    >
      <Via via={via} />
      <p className="mb-4 text-sm leading-relaxed text-zinc-700">
        <span className="font-semibold break-all text-zinc-900">{email}</span>{" "}
        にお送りした6桁の認証コードを入力してください。コードの有効期限は10分です。
      </p>
    </CodeStep>
  );
}

function ChangeStep({
  result,
  notice,
  FormComponent,
  busy,
  via,
}: StepProps & { result: SubmissionResult<string[]> | null }) {
  // Checked in the browser once touched: zod and conform's form state stay out of /account's first load.
  const validation = useDeferredValidation("newPassword");
  const [form, fields] = useStorefrontForm({
    id: `new-password-${via}`,
    lastResult: result,
    validate: validation.validate,
  });
  return (
    <FormComponent
      method="post"
      action={ACTION}
      {...form.props}
      onFocus={validation.load}
      className="space-y-4"
    >
      <Via via={via} />
      <input type="hidden" name="intent" value="change" />
      <Notice notice={notice} />
      <FormError id={form.errorId} errors={form.errors} />
      <NewPasswordFields password={fields.newPassword} confirmation={fields.confirmPassword} />
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        パスワードを変更
      </button>
    </FormComponent>
  );
}
