import { Form, type FormProps } from "@remix-run/react";
import { useCallback, useState, type ComponentType, type ReactNode, type RefAttributes } from "react";
import { CodeInput } from "~/components/CodeInput";
import { FieldLabel } from "~/components/forms";
import { useHydrated } from "~/lib/hooks/use-hydrated";

/** The server's answer on a code screen; a new `at` clears the boxes (after a failure or a resend). */
export type CodeNotice = { kind: "error" | "success"; message: string; at: number };

/**
 * Entering a mailed code (checkout e-mail, registration, password change): the six boxes, the
 * server's answer under them, 認証する-style submit (intent=verify) and 認証コードを再送信
 * (intent=resend). With JS the submit waits for all six digits; without JS the server checks.
 * Ids: `${id}-label` (when `label` is given) and `${id}-message`, which the boxes name.
 */
export function CodeStep({
  id,
  label,
  notice,
  submitLabel,
  busy,
  FormComponent = Form,
  action,
  className,
  children,
}: {
  id: string;
  label?: string;
  notice: CodeNotice | null | undefined;
  submitLabel: string;
  busy: boolean;
  /** Remix's <Form> on a page, a fetcher's <Form> in a dialog. */
  FormComponent?: ComponentType<FormProps & RefAttributes<HTMLFormElement>>;
  action?: string;
  className?: string;
  /** Before the boxes: hidden fields, a line of explanation. */
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const [complete, setComplete] = useState(false);
  const onComplete = useCallback((value: boolean) => setComplete(value), []);
  const error = notice?.kind === "error";
  return (
    <FormComponent method="post" action={action} className={className}>
      {children}
      {label ? (
        <FieldLabel id={`${id}-label`} className="text-center">
          {label}
        </FieldLabel>
      ) : null}
      <CodeInput
        resetKey={String(notice?.at ?? "initial")}
        invalid={error}
        describedBy={label ? `${id}-label ${id}-message` : `${id}-message`}
        onComplete={onComplete}
      />
      <div id={`${id}-message`} aria-live="polite" className="mt-3 min-h-6 text-center text-sm">
        {notice ? (
          <p
            role={error ? "alert" : "status"}
            className={error ? "font-medium text-red-700" : "text-emerald-700"}
          >
            {notice.message}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        name="intent"
        value="verify"
        className="mt-2 btn-primary w-full"
        disabled={busy || (hydrated && !complete)}
      >
        {submitLabel}
      </button>
      <button
        type="submit"
        name="intent"
        value="resend"
        formNoValidate
        className="mt-3 btn-secondary w-full"
        disabled={busy}
      >
        認証コードを再送信
      </button>
    </FormComponent>
  );
}
