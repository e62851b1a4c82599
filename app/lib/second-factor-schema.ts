import { z } from "zod";

/** The login's second factor and the authenticator setup: exactly six digits. */
export const sixDigitCodeSchema = z.object({
  code: z
    .string({ required_error: "6桁の認証コードを入力してください" })
    .transform((value) =>
      value.replace(/\s/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)),
    )
    .pipe(z.string().regex(/^\d{6}$/, "6桁の認証コードを入力してください")),
});
