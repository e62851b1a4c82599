/**
 * What makes a spreadsheet read a cell as a formula: a leading =, +, -, @ (or a tab or
 * carriage return before one), and their full-width forms ＝＋－＠, which Excel in Japan
 * also takes as a formula once the IME has converted them.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A plain negative number (a refund in the sales CSV): a spreadsheet reads it as the number it is, never a formula. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** One CSV field: quoted when it holds a comma, quote or line break; a formula start is defused for spreadsheets. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** UTF-8 byte order mark: Excel on Windows opens the file as UTF-8 only with it. */
export const UTF8_BOM = "\uFEFF";
