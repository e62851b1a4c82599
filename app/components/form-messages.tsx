import type { ReactNode } from "react";

/**
 * The messages for a whole form (its errors, or a notice that is not one), drawn alike across the
 * shop; the fields' own errors are FieldError in forms.tsx.
 */

const noticeStyles = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
} as const;

function FormBox({
  id,
  role,
  tone,
  children,
}: {
  id?: string;
  role: "alert" | "status";
  tone: keyof typeof noticeStyles;
  children: ReactNode;
}) {
  return (
    <div
      id={id}
      role={role}
      className={`rounded-lg border px-4 py-3 text-sm leading-relaxed font-medium ${noticeStyles[tone]}`}
    >
      {children}
    </div>
  );
}

/**
 * The errors for the whole form (the server's refusal, or the schema's form-level check), above
 * its fields. `id` is conform's form errorId, which the form's aria-describedby names; role="alert"
 * has it read out when it appears after a post. `detail` is a second, plainer line (a lockout's
 * end, a warning about the attempts left). Renders nothing when there is no error.
 */
export function FormError({
  id,
  errors,
  detail,
}: {
  id?: string;
  errors?: readonly string[] | null;
  detail?: ReactNode;
}) {
  if (!errors?.length) return null;
  return (
    <FormBox id={id} role="alert" tone="error">
      {detail ? (
        <>
          <p>{errors.join(" ")}</p>
          <p className="mt-1 font-normal">{detail}</p>
        </>
      ) : (
        errors.join(" ")
      )}
    </FormBox>
  );
}

/**
 * A message for the whole form that is not an error: "sent" after a post (role="status", read
 * out politely), or a warning to read before posting (role="alert", as it must not be missed).
 */
export function FormNotice({
  id,
  kind,
  children,
}: {
  id?: string;
  kind: "success" | "warning";
  children: ReactNode;
}) {
  return (
    <FormBox id={id} role={kind === "success" ? "status" : "alert"} tone={kind}>
      {children}
    </FormBox>
  );
}
