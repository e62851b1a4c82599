/** One CSV field: quoted when it holds a comma, quote or line break; a leading =,+,-,@ is defused for spreadsheets. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** UTF-8 byte order mark: Excel on Windows opens the file as UTF-8 only with it. */
export const UTF8_BOM = "\uFEFF";
