/**
 * A contest's 合言葉: a shared code handed out at the venue (on the flyer), not a password. It is
 * stored as the admin typed it (trimmed), so she can read it back and print it; a parent's entry
 * matches it when both read the same after NFKC (full-width ＡＢＣ１２３ and half-width ｶﾀｶﾅ become
 * abc123 and カタカナ), in lower case, and without spaces (a code typed with a space in it still
 * opens; the admin's own has none). The server and the 大会設定 form check its shape with the same rule.
 */

/** Six characters at least: with the attempt limits, even six digits take years to guess (decision 0046). */
export const ACCESS_CODE_MIN = 6;
export const ACCESS_CODE_MAX = 32;

/** What a code is compared as: NFKC, lower case, no whitespace. */
export function normalizeAccessCode(typed: string): string {
  return typed.normalize("NFKC").toLowerCase().replace(/\s+/gu, "");
}

/** Whether what a parent typed is the contest's code. */
export function accessCodeMatches(code: string, typed: string): boolean {
  const expected = normalizeAccessCode(code);
  return expected !== "" && normalizeAccessCode(typed) === expected;
}

/**
 * Why a code the admin typed cannot be the contest's, or null when it can: letters of any script,
 * digits, the long vowel mark and hyphens, so it can be read aloud and typed on a phone.
 */
export function accessCodeProblem(code: string): string | null {
  if (/\s/u.test(code.trim())) return "合言葉に空白は使えません";
  const normalized = normalizeAccessCode(code);
  if ([...normalized].length < ACCESS_CODE_MIN || [...normalized].length > ACCESS_CODE_MAX)
    return `合言葉は${ACCESS_CODE_MIN}〜${ACCESS_CODE_MAX}文字で入力してください`;
  if (!/^[\p{L}\p{N}ー-]+$/u.test(normalized))
    return "合言葉に使えるのは文字・数字・長音（ー）・ハイフン（-）です";
  return null;
}

/**
 * The order form's post of a 合言葉 (its hidden intent). Here, not beside the entry's schema: the
 * order form's page names it, and a constant of a schema's module brings zod into the page's first
 * load.
 */
export const ACCESS_CODE_INTENT = "unlock";
