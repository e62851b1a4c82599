/**
 * Style words in a file name (縦, yoko, 横型, the contest's own スマホ用) and the contest style
 * each one means.
 */
import type { Orientation } from "~/lib/rules/pricing";
import { compactText } from "./text.server";

/** The contest's styles in display order: the first format is vertical, the second horizontal (app/lib/rules/pricing.ts orientationAt). */
export type DeliveryStyle = { name: string; orientation: Orientation };

/** Style words in kana and Latin letters, read only as whole words (きよこ and Yokoyama are names). */
const VERTICAL_WORDS = new Set(["たて", "タテ", "tate", "vertical", "portrait"]);
const HORIZONTAL_WORDS = new Set(["よこ", "ヨコ", "yoko", "horizontal", "landscape"]);
/**
 * Style words in kanji (縦, 横型, 縦長, 横向き, 縦動画, 縦向き動画), alone or straight after a name
 * (山田花子縦). Not at the start of a word: 横山 and 縦川 are surnames.
 */
export const KANJI_STYLE_AT_END = /(縦|横)(?:型|長|向き|撮り|画面)?(?:動画|版)?$/;
/** Whether a contest's own style name says which way it is filmed (縦動画, 横（テレビ用）). */
const SAYS_VERTICAL = /縦|たて|タテ|tate|vertical|portrait/;
const SAYS_HORIZONTAL = /横|よこ|ヨコ|yoko|horizontal|landscape/;

/** What the name says about the style, in the contest's own terms (its price slots). */
export type StyleReading =
  | { kind: "none" }
  | { kind: "one"; orientation: Orientation }
  /** Two different styles, with the names the admin knows them by. */
  | { kind: "both"; names: string[] }
  /** A style word the contest does not sell (a 横 file for a contest that sells only 縦). */
  | { kind: "unsold"; filmed: Orientation };

/** Which way a contest style is filmed, by its name (縦, 横動画), or null when the name does not say (スマホ用). */
function filmedWay(styleName: string): Orientation | null {
  const name = compactText(styleName);
  const vertical = SAYS_VERTICAL.test(name);
  const horizontal = SAYS_HORIZONTAL.test(name);
  if (vertical === horizontal) return null;
  return vertical ? "vertical" : "horizontal";
}

/**
 * The contest style a 縦 or 横 word means: the style named that way; when no style name says
 * which way it is filmed (スマホ用 / テレビ用), 縦 is the first style and 横 the second (the
 * price rule's order). Null: the contest does not sell it.
 */
export function styleForWord(filmed: Orientation, styles: readonly DeliveryStyle[]): Orientation | null {
  const named = styles.map((style) => ({ style, filmed: filmedWay(style.name) }));
  const same = named.find((n) => n.filmed === filmed);
  if (same) return same.style.orientation;
  if (named.some((n) => n.filmed !== null)) return null;
  return styles.some((s) => s.orientation === filmed) ? filmed : null;
}

export function builtInStyle(word: string): Orientation | null {
  if (VERTICAL_WORDS.has(word)) return "vertical";
  if (HORIZONTAL_WORDS.has(word)) return "horizontal";
  return null;
}

/** The styles a file name mentions (by orientation, or unsold:…), each with the name the admin knows it by. */
export function styleReading(hits: Map<string, string>): StyleReading {
  if (hits.size > 1) {
    // In the contest's order (the first format is vertical), then the styles it does not sell.
    const order = ["vertical", "horizontal", "unsold:vertical", "unsold:horizontal"];
    const keys = [...hits.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return { kind: "both", names: keys.map((key) => hits.get(key) ?? key) };
  }
  const [hit] = hits.keys();
  if (hit === "vertical" || hit === "horizontal") return { kind: "one", orientation: hit };
  if (hit === "unsold:vertical") return { kind: "unsold", filmed: "vertical" };
  if (hit === "unsold:horizontal") return { kind: "unsold", filmed: "horizontal" };
  return { kind: "none" };
}

/** The styles the contest sells, each once, in its order. */
export function soldOrientations(styles: readonly DeliveryStyle[]): Orientation[] {
  return [...new Set(styles.map((s) => s.orientation))];
}
