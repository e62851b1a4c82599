/**
 * The shop's one reading of an id from a URL segment, a query string or a form field: a
 * whole number above zero, written in plain digits (no sign, spaces, decimals or
 * exponents), and small enough to be exact. Anything else (a File, an array, null) is
 * no id at all.
 */
export function positiveId(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== "string" || !/^\d{1,16}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A list's page number from the query string: 1 when missing or not a page, at most `last`. */
export function pageNumber(value: unknown, last: number): number {
  return Math.min(last, positiveId(value) ?? 1);
}
