/**
 * A delivery file's name as the matcher reads it: normalised, without folders or extension, and
 * cut into words; where a name or a style word stands in it, and how to blank it out once read.
 */

/** NFKC makes full-width digits and letters (１２, ＮＯ, №) ASCII and half-width kana (ﾀﾃ) full-width; case never matters. */
export function normaliseText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/**
 * Anything that is not a letter, a digit or a combining mark separates words: `_ - . ,`, spaces of
 * both widths, （）[]【】「」, ・, #, 〜 … (ー and 々 are letters, so エントリー stays one word).
 */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;

/** A name as compared: normalised, with spaces and other separators gone (山田 花子 = 山田_花子 = 山田花子). */
export function compactText(text: string): string {
  return normaliseText(text).replace(SEPARATORS, "");
}

/** Video containers editors export to; stripped even when doubled (`12_縦.mp4.mp4`), so "mp4" never leaves a 4 behind. */
const VIDEO_EXTENSION = /\.(?:mp4|m4v|mov|qt|webm|mkv|avi|wmv|mpe?g|mts|m2ts|ts|3gp|3g2|flv|hevc)$/;
/** Any other short extension (.part, .tmp). It must start with a letter, so that the 12 of "No.12" stays. */
const OTHER_EXTENSION = /\.[a-z][a-z0-9]{0,4}$/;

/** The file name without folders or extension, normalised. */
export function fileStem(fileName: string): string {
  // An old browser may send the whole path; split before NFKC, which would turn a legal ／ into a /.
  let stem = normaliseText(fileName.split(/[/\\]/).pop() ?? "").trim();
  const before = stem;
  while (VIDEO_EXTENSION.test(stem)) stem = stem.replace(VIDEO_EXTENSION, "");
  if (stem === before) stem = stem.replace(OTHER_EXTENSION, "");
  return stem;
}

export type Span = { start: number; end: number };

/** Digits and Latin letters need a word boundary; CJK runs together with no spaces (山田花子縦). */
function charClass(char: string | undefined): "digit" | "latin" | "other" {
  if (char === undefined) return "other";
  if (/[0-9]/.test(char)) return "digit";
  return /[a-z]/.test(char) ? "latin" : "other";
}

/** A stem as code points, with the letters and digits kept apart from the separators between them. */
export type IndexedStem = { chars: string[]; kept: { char: string; index: number }[]; compact: string };

export function indexStem(stem: string): IndexedStem {
  const chars = Array.from(stem);
  const kept = chars.flatMap((char, index) => (char.replace(SEPARATORS, "") ? [{ char, index }] : []));
  return { chars, kept, compact: kept.map((k) => k.char).join("") };
}

/**
 * Where a compacted text (a name, a style name) stands in the stem, separators allowed between
 * its characters (山田_花子). It must not run on into more digits or Latin letters: 選手1 is not
 * in 選手12, emma is not in emmanuel.
 */
export function findSpans(stem: IndexedStem, needle: string): Span[] {
  if (!needle || !stem.compact.includes(needle)) return [];
  const wanted = Array.from(needle);
  const startClass = charClass(wanted[0]);
  const endClass = charClass(wanted[wanted.length - 1]);
  const spans: Span[] = [];
  for (let i = 0; i + wanted.length <= stem.kept.length; i++) {
    if (!wanted.every((char, k) => stem.kept[i + k]?.char === char)) continue;
    const start = stem.kept[i]?.index ?? 0;
    const end = (stem.kept[i + wanted.length - 1]?.index ?? 0) + 1;
    if (startClass !== "other" && charClass(stem.chars[start - 1]) === startClass) continue;
    if (endClass !== "other" && charClass(stem.chars[end]) === endClass) continue;
    spans.push({ start, end });
  }
  return spans;
}

/** The stem with these spans turned into separators, so what stood there is read no further. */
export function blankOut(stem: string, spans: Span[]): string {
  const chars = Array.from(stem);
  for (const span of spans) chars.fill(" ", span.start, span.end);
  return chars.join("");
}

type TokenKind = "digits" | "latin" | "word";
/** A word of the stem, with the separators before it: "" when it touches the word before (no12, 1080p). */
export type Token = { text: string; kind: TokenKind; gap: string };

/** Digits, Latin letters and other scripts each make a token: no12 → no, 12; 演奏順12縦 → 演奏順, 12, 縦. */
const TOKEN = /[0-9]+|[a-z]+|[^0-9a-z]+/g;

export function tokenise(stem: string): Token[] {
  const tokens: Token[] = [];
  let gap = "";
  for (const [, separator, run] of stem.matchAll(/([^\p{L}\p{N}\p{M}]+)|([\p{L}\p{N}\p{M}]+)/gu)) {
    if (run === undefined) {
      gap = separator ?? "";
      continue;
    }
    for (const [text] of run.matchAll(TOKEN)) {
      const kind: TokenKind = /^[0-9]/.test(text) ? "digits" : /^[a-z]/.test(text) ? "latin" : "word";
      tokens.push({ text, kind, gap });
      gap = "";
    }
  }
  return tokens;
}

/** The one item of a list of one, else null. */
export function onlyOne<T>(items: readonly T[]): T | null {
  const [first] = items;
  return items.length === 1 && first !== undefined ? first : null;
}
