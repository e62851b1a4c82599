/**
 * Password rules the pages state and the schemas check. Kept apart from the zod schemas
 * so a page can show them without loading zod (see use-deferred-validation.ts).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const PASSWORD_HINT = `${PASSWORD_MIN}文字以上で、英大文字・英小文字・数字のうち2種類以上を組み合わせてください`;
