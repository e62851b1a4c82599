import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { FieldError } from "~/components/forms";

/**
 * The tab's small repeated shapes: a name typed beside its button (adding a category or a
 * format, renaming a format), and a one-button form that posts an intent with the row it is for
 * (削除, 上へ / 下へ).
 */

/** A name input with its button on the same line and its error under both; the label is the caller's. */
export function NameInputRow({
  meta,
  placeholder,
  children,
}: {
  meta: FieldMetadata<string>;
  placeholder?: string;
  /** The submit button. */
  children: ReactNode;
}) {
  return (
    <>
      <div className="flex gap-2">
        <input {...getInputProps(meta, { type: "text" })} placeholder={placeholder} className="field-input" />
        {children}
      </div>
      <FieldError announce id={meta.errorId} errors={meta.errors} />
    </>
  );
}

/** A form of one button posting `intent` with the row's ids (hidden fields), without JavaScript too. */
export function IntentButton({
  intent,
  values,
  label,
  className,
  disabled,
  children,
}: {
  intent: string;
  values: Record<string, string | number>;
  /** The button's accessible name, which says which row it acts on. */
  label: string;
  className: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="shrink-0">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" aria-label={label} disabled={disabled} className={className}>
        {children}
      </button>
    </Form>
  );
}
