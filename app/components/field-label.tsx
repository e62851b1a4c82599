import type { ReactNode } from "react";

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

/**
 * The label of one control, drawn as every field draws it. The fields below use it; a screen uses it
 * alone only for a control none of them can draw (a file input inside an upload queue's drop zone,
 * a select bound to React state, a form not built on conform), and then links the hint and the
 * error itself. With `htmlFor` it is a `<label>`; without, a caption (`<p>`) with an `id` that a
 * group names itself by (aria-labelledby) or is described by (aria-describedby).
 */
export function FieldLabel({
  htmlFor,
  id,
  className,
  children,
}: {
  htmlFor?: string;
  id?: string;
  /** Added to the label's look (text-center, say), never replacing it. */
  className?: string;
  children: ReactNode;
}) {
  const look = className ? `field-label ${className}` : "field-label";
  if (htmlFor === undefined)
    return (
      <p id={id} className={look}>
        {children}
      </p>
    );
  return (
    <label htmlFor={htmlFor} id={id} className={look}>
      {children}
    </label>
  );
}
