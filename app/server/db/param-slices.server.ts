/**
 * SQLite caps the parameters one statement may bind, so a list of ids (or rows) that a screen
 * or an API call can make long is sent in slices of this many. 500 ids bind 500 parameters;
 * a row insert binds one per column, so its callers pass a smaller size.
 */
export const PARAMS_PER_STATEMENT = 500;

/** `values` cut into consecutive slices of at most `size`, in order (none for an empty list). */
export function paramSlices<T>(values: readonly T[], size = PARAMS_PER_STATEMENT): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < values.length; i += size) slices.push(values.slice(i, i + size));
  return slices;
}
