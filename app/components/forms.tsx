import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Form, type FormProps } from "@remix-run/react";
import {
  useCallback,
  useState,
  type ComponentType,
  type InputHTMLAttributes,
  type ReactNode,
  type RefAttributes,
} from "react";
import { CodeInput } from "~/components/CodeInput";
import { PASSWORD_HINT } from "~/lib/password-rules";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A field's first error, under the field, linked to it by `id` (conform's `errorId`, which the
 * input's aria-describedby names). `announce` gives it role="alert": for inline edits in a table,
 * where focus stays put and a screen reader would otherwise not hear the error appear.
 */
export function FieldError({
  id,
  errors,
  announce = false,
  className = "",
}: {
  id?: string;
  errors?: string[] | null;
  announce?: boolean;
  className?: string;
}) {
  if (!errors?.length) return null;
  return (
    <p id={id} role={announce ? "alert" : undefined} className={`field-error ${className}`.trim()}>
      {errors[0]}
    </p>
  );
}

type InputType =
  "text" | "email" | "password" | "number" | "tel" | "url" | "date" | "datetime-local" | "search";

/**
 * A labelled input with its hint and error, over conform's metadata: the label names the input,
 * the hint and the error are announced with it, and the server's reply refills the value.
 * `inputProps` carries what differs per field (autoComplete, inputMode, placeholder); `announce`
 * is FieldError's. Generic over the field's value type as getInputProps is: a preprocessed zod field reads as unknown.
 */
export function Field<Schema>({
  label,
  meta,
  type,
  hint,
  inputProps,
  announce = false,
}: {
  label: ReactNode;
  meta: FieldMetadata<Schema>;
  type: InputType;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  announce?: boolean;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={meta.id} className="field-label">
        {label}
      </label>
      <input
        {...getInputProps(meta, { type, ariaDescribedBy: hintId })}
        className="field-input"
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={meta.errorId} errors={meta.errors} announce={announce} />
    </div>
  );
}

/** A new password and its confirmation (password reset, password change), with the password rules as the hint. */
export function NewPasswordFields<Schema>({
  password,
  confirmation,
}: {
  password: FieldMetadata<Schema>;
  confirmation: FieldMetadata<Schema>;
}) {
  return (
    <>
      <Field
        label="新しいパスワード"
        meta={password}
        type="password"
        hint={PASSWORD_HINT}
        inputProps={{ autoComplete: "new-password" }}
      />
      <Field
        label="新しいパスワード（確認）"
        meta={confirmation}
        type="password"
        inputProps={{ autoComplete: "new-password" }}
      />
    </>
  );
}

/** A form's submit button, on the right, disabled and relabelled while the form is on its way. */
export function SubmitRow({
  busy,
  busyLabel,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-end">
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? busyLabel : children}
      </button>
    </div>
  );
}

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
        <p id={`${id}-label`} className="field-label text-center">
          {label}
        </p>
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

/** The server's or the schema's errors for the whole form, above its fields (conform's form errorId). */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800"
    >
      {errors.join(" ")}
    </p>
  );
}
