/** A LIKE pattern for "contains", with the wildcards of the text taken literally (use with `escape '\'`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
