/**
 * The shop's one reading of an amount an admin types (a refund, a promotion's price or
 * discount, a number of videos): a whole number written in decimal digits as the pages write
 * it, and nothing else that JavaScript's Number() would also read — `0x10` is not 16, `1e3` not
 * 1,000, and a sign, a decimal point or a space (around the digits or inside them) is not part of
 * an amount. Full-width digits and commas are read as a Japanese IME types them (１,０００), and
 * commas only where they group thousands (1,000 and 12,345,678; not 1,0000). A number too large
 * to be exact is no amount at all.
 */
export function wholeNumber(typed: string): number | null {
  const plain = typed.replace(/[０-９，]/g, (wide) => String.fromCharCode(wide.charCodeAt(0) - 0xfee0));
  if (!/^(?:\d{1,3}(?:,\d{3})+|\d+)$/.test(plain)) return null;
  const value = Number(plain.replaceAll(",", ""));
  return Number.isSafeInteger(value) ? value : null;
}

/** Yen as typed: a whole number as above, with the 円 the pages write after an amount (3,000円). */
export function typedYen(typed: string): number | null {
  return wholeNumber(typed.endsWith("円") ? typed.slice(0, -1) : typed);
}

/**
 * A number field of a form as typed (conform hands each field's text to its schema through this):
 * a whole number as `wholeNumber` reads it, or else a plain decimal with an optional minus sign
 * (-5, 1.5), so that the schema's own message says what is wrong with it (0以上, 整数で). Anything
 * else JavaScript's Number() would read, `0x10`, `1e3`, `Infinity`, is not a number (NaN: the
 * schema's 数字で入力してください). Spaces around what was typed are not part of it.
 */
export function formNumber(text: string): number {
  const typed = text.trim();
  const whole = wholeNumber(typed);
  if (whole !== null) return whole;
  const plain = typed.replace(/[０-９．－]/g, (wide) => String.fromCharCode(wide.charCodeAt(0) - 0xfee0));
  return /^-?\d+(?:\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}
