import { z } from "zod";
import { newPasswordProblem, PASSWORD_MAX, PASSWORD_MESSAGES } from "../rules/password-rules";

/**
 * The account forms (register, registration code, login, password change), shared by
 * conform in the browser and parseForm on the server, so a rule is written once.
 */

export const ACCOUNT_MESSAGES = {
  passwordMismatch: "パスワードが一致しません",
  newPasswordMismatch: "新しいパスワードが一致しません",
  passwordTooShort: PASSWORD_MESSAGES.tooShort,
  passwordTooLong: PASSWORD_MESSAGES.tooLong,
  passwordTooSimple: PASSWORD_MESSAGES.tooSimple,
  allFieldsRequired: "すべての項目を入力してください",
  codeRequired: "認証コードを入力してください",
  codeFormat: "認証コードは6桁の数字で入力してください",
  registrationCodeFormat: "6桁の認証コードを入力してください",
  termsRequired: "利用規約とプライバシーポリシーへの同意が必要です",
} as const;

/** A string field whose missing, blank or wrongly typed (e.g. repeated) value gets the same Japanese message. */
function text(message: string) {
  return z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);
}

const email = text("メールアドレスを入力してください").pipe(
  z.string().max(254, "メールアドレスが長すぎます").email("メールアドレスの形式が正しくありません"),
);

function checkNewPassword(password: string, path: string, ctx: z.RefinementCtx) {
  const problem = newPasswordProblem(password);
  if (problem) ctx.addIssue({ code: "custom", path: [path], message: problem });
}

// Passwords are not trimmed: a space is a character like any other.
const password = (message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).min(1, message);

/**
 * Registration's password pair: the rules on the password field itself and the mismatch on
 * the pair, parsed beside the other fields (an intersection, not one object's refinement,
 * which zod would skip while the terms box or any other field is wrong), so every error
 * shows at once.
 */
const registrationPasswords = z
  .object({
    password: password("パスワードを入力してください").superRefine((value, ctx) => {
      const problem = newPasswordProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    confirmPassword: password("確認用のパスワードを入力してください"),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: ACCOUNT_MESSAGES.passwordMismatch });
  });

export const registerSchema = z.intersection(
  z.object({
    name: text("お名前を入力してください").pipe(z.string().max(100, "お名前は100文字以内で入力してください")),
    email,
    agreesToTerms: z.literal("on", { errorMap: () => ({ message: ACCOUNT_MESSAGES.termsRequired }) }),
    /** The honeypot: hidden from people, filled by bots. The server refuses silently when it has a value. */
    website: z.unknown().optional(),
    from: z.unknown().optional(),
  }),
  registrationPasswords,
);

/** A new password and its confirmation, as the password reset has them. */
function checkPasswordPair(value: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  checkNewPassword(value.password, "password", ctx);
  if (value.password !== value.confirmPassword)
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: ACCOUNT_MESSAGES.passwordMismatch });
}

export type RegisterValues = z.infer<typeof registerSchema>;

/** Six boxes named `code` arrive as six values; joined (full-width digits allowed) they must be six digits. */
function sixDigitCode(requiredMessage: string, formatMessage: string) {
  return z.preprocess(
    (value) =>
      Array.isArray(value) ? value.map((part) => (typeof part === "string" ? part : "")).join("") : value,
    z
      .string({ required_error: requiredMessage, invalid_type_error: formatMessage })
      .transform((value) =>
        value.replace(/\s/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)),
      )
      .pipe(
        z
          .string()
          .min(1, requiredMessage)
          .regex(/^\d{6}$/, formatMessage),
      ),
  );
}

export const registrationCodeSchema = z.object({
  code: sixDigitCode(ACCOUNT_MESSAGES.registrationCodeFormat, ACCOUNT_MESSAGES.registrationCodeFormat),
});

export const loginSchema = z.object({
  email,
  password: password("パスワードを入力してください").pipe(
    z.string().max(PASSWORD_MAX, ACCOUNT_MESSAGES.passwordTooLong),
  ),
  redirectTo: z.unknown().optional(),
});

export type LoginValues = z.infer<typeof loginSchema>;

export const passwordChangeCodeSchema = z.object({
  code: sixDigitCode(ACCOUNT_MESSAGES.codeRequired, ACCOUNT_MESSAGES.codeFormat),
});

export const newPasswordSchema = z
  .object({
    newPassword: z.string({ invalid_type_error: ACCOUNT_MESSAGES.allFieldsRequired }).optional(),
    confirmPassword: z.string({ invalid_type_error: ACCOUNT_MESSAGES.allFieldsRequired }).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.newPassword || !value.confirmPassword) {
      ctx.addIssue({ code: "custom", path: [], message: ACCOUNT_MESSAGES.allFieldsRequired });
      return;
    }
    checkNewPassword(value.newPassword, "newPassword", ctx);
    if (value.newPassword !== value.confirmPassword) {
      ctx.addIssue({
        code: "custom",
        path: ["confirmPassword"],
        message: ACCOUNT_MESSAGES.newPasswordMismatch,
      });
    }
  })
  .transform((value) => ({ newPassword: value.newPassword ?? "" }));

/** The steps of the password change, in order; a step's form posts `intent` with its name. */
export const PASSWORD_CHANGE_STEPS = ["send", "verify", "change"] as const;
export type PasswordChangeStep = (typeof PASSWORD_CHANGE_STEPS)[number];

export function passwordChangeStep(value: unknown): PasswordChangeStep {
  return PASSWORD_CHANGE_STEPS.find((step) => step === value) ?? "send";
}

/** パスワードをお忘れの方: the address to mail the reset link to. */
export const forgotPasswordSchema = z.object({ email });

/** The page the reset link opens: the link's token and the new password, with the registration's rules. */
export const resetPasswordSchema = z
  .object({
    token: z.string({
      required_error: "リンクが正しくありません",
      invalid_type_error: "リンクが正しくありません",
    }),
    password: password("新しいパスワードを入力してください"),
    confirmPassword: password("確認用のパスワードを入力してください"),
  })
  .superRefine(checkPasswordPair);
