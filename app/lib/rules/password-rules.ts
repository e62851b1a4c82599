/**
 * Password rules the pages state and the schemas check. Kept apart from the zod schemas
 * so a page can show them without loading zod (see use-deferred-validation.ts).
 * Every form that sets a new password (registration, password change, the checkout's
 * auto-login account) checks it with `newPasswordProblem`, so no entry point is weaker.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const PASSWORD_HINT = `${PASSWORD_MIN}文字以上で、英大文字・英小文字・数字のうち2種類以上を組み合わせてください`;

/**
 * The login page's advice (the storefront spec): stronger than the minimum that registration
 * checks, stated as a recommendation, never enforced at login.
 */
export const STRONG_PASSWORD_HINT =
  "安全のため、パスワードは12文字以上で、英大文字・英小文字・数字・記号を組み合わせたものをおすすめします";

export const PASSWORD_MESSAGES = {
  tooShort: `パスワードは${PASSWORD_MIN}文字以上で入力してください`,
  tooLong: `パスワードは${PASSWORD_MAX}文字以内で入力してください`,
  tooSimple: "英大文字・英小文字・数字のうち2種類以上を組み合わせてください",
} as const;

/** At least two of upper case, lower case and digits. */
export function isStrongEnough(password: string): boolean {
  return [/[A-Z]/, /[a-z]/, /[0-9]/].filter((pattern) => pattern.test(password)).length >= 2;
}

/** Why a new password is refused (the message shown beside the field), or null when it is good. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX) return PASSWORD_MESSAGES.tooLong;
  if (!isStrongEnough(password)) return PASSWORD_MESSAGES.tooSimple;
  return null;
}
