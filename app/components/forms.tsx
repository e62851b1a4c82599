import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";

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
