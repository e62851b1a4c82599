import type { FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/forms";
import { PASSWORD_HINT } from "~/lib/rules/password-rules";

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
