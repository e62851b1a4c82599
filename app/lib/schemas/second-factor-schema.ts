import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MESSAGES } from "../rules/password-rules";

/** The login's second factor and the authenticator setup: exactly six digits. */
export const sixDigitCodeSchema = z.object({
  code: z
    .string({ required_error: "6桁の認証コードを入力してください" })
    .transform((value) =>
      value.replace(/\s/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)),
    )
    .pipe(z.string().regex(/^\d{6}$/, "6桁の認証コードを入力してください")),
});

/** Before the authenticator changes: the account's password and its current second factor's code. */
export const authenticatorIdentitySchema = sixDigitCodeSchema.extend({
  // Not trimmed: a space is a character of a password like any other.
  password: z
    .string({ required_error: "パスワードを入力してください" })
    .min(1, "パスワードを入力してください")
    .max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong),
});

/** The new app's first code, with the token of the setup screen that showed its secret. */
export const authenticatorConfirmSchema = sixDigitCodeSchema.extend({
  token: z.string({ required_error: "設定情報がありません" }).min(1).max(100),
});
