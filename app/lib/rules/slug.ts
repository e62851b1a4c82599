/**
 * The spec's contest slug: dots and whitespace removed, lower-cased, non-word
 * characters removed. "Word" follows Unicode so Japanese names keep their letters.
 */
export function contestSlug(name: string): string {
  return name
    .replace(/[.\s]/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]/gu, "");
}

/** Matching a slug ignores hyphens. */
export function slugKey(slugOrName: string): string {
  return contestSlug(slugOrName).replace(/-/g, "");
}

/** A name whose slug is empty (only symbols) gives no order form address. */
export const NAME_WITHOUT_SLUG_MESSAGE = "大会名には文字か数字を1文字以上含めてください";
