/**
 * Reading a file name in steps, each blanking out what it has read so the next does not read it
 * again: athletes' names, the contest's style names, digits that are not numbers, style words,
 * the athlete numbers, and the words left over.
 */
import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import { takeAthleteNames, type PreparedAthletes } from "./athlete-names.server";
import { readNumbers } from "./athlete-numbers.server";
import { takeOtherDigits } from "./other-digits.server";
import {
  builtInStyle,
  KANJI_STYLE_AT_END,
  styleForWord,
  styleReading,
  type DeliveryStyle,
  type StyleReading,
} from "./styles.server";
import { blankOut, compactText, fileStem, findSpans, indexStem, tokenise } from "./text.server";

/** Polite forms after a name (花子ちゃん, 山田さん). */
const HONORIFIC = /(?:さん|ちゃん|くん|君|様|さま)$/;

export type Reading = {
  /** The athlete numbers it may be for: the marked ones if any, else the bare ones; distinct. */
  numbers: number[];
  /** It looks like a name a camera gave, and no marked number says otherwise. */
  camera: boolean;
  style: StyleReading;
  /** Athletes whose whole name stands in the file name (the longest where one name contains another). */
  namedIds: number[];
  /** Words left over: maybe part of a name (山田 for 山田花子), maybe a note (final, 完成). */
  leftover: string[];
};

export function read(
  fileName: string,
  styles: readonly DeliveryStyle[],
  numberLabel: string,
  athletes: PreparedAthletes,
): Reading {
  // 1. Athletes' names first, so that a style word inside a name is never read as a style.
  const names = takeAthleteNames(fileStem(fileName), athletes);
  let stem = names.stem;

  // 2. The contest's own style names (スマホ用, テレビ用): they mean that style whatever they say.
  // Each style found is kept with the name the admin knows it by: the contest's, or 縦/横 when unsold.
  const styleHits = new Map<string, string>();
  const nameOfStyle = (orientation: Orientation) =>
    styles.find((s) => s.orientation === orientation)?.name ?? ORIENTATION_LABELS[orientation];
  const hitStyle = (orientation: Orientation) => styleHits.set(orientation, nameOfStyle(orientation));
  const addStyleWord = (filmed: Orientation) => {
    const orientation = styleForWord(filmed, styles);
    if (orientation) hitStyle(orientation);
    else styleHits.set(`unsold:${filmed}`, ORIENTATION_LABELS[filmed]);
  };
  for (const style of styles) {
    const name = compactText(style.name);
    const spans = Array.from(name).length >= 2 ? findSpans(indexStem(stem), name) : [];
    if (spans.length) hitStyle(style.orientation);
    stem = blankOut(stem, spans);
  }
  const ownStyleNames = new Map(styles.map((s) => [compactText(s.name), s.orientation]));

  // 3. Digits that are not athlete numbers.
  const other = takeOtherDigits(stem);
  const tokens = tokenise(other.stem);

  // 4. Style words among the words left (a one-character style name like 縦 is one of them).
  const used = new Set<number>();
  const leftoverOf = new Map<number, string>();
  tokens.forEach((token, i) => {
    if (token.kind === "digits") return;
    const own = ownStyleNames.get(token.text);
    const builtIn = builtInStyle(token.text);
    if (own) hitStyle(own);
    else if (builtIn) addStyleWord(builtIn);
    else {
      if (token.kind !== "word") return;
      // Peel style words off the end: 山田花子縦 → 縦 and 山田花子; 縦横 → both.
      let rest = token.text;
      for (let atEnd = KANJI_STYLE_AT_END.exec(rest); atEnd; atEnd = KANJI_STYLE_AT_END.exec(rest)) {
        addStyleWord(atEnd[1] === "縦" ? "vertical" : "horizontal");
        rest = rest.slice(0, atEnd.index);
      }
      if (rest !== token.text) leftoverOf.set(i, rest);
      return;
    }
    used.add(i);
  });

  // 5. The athlete number: a marked one wins; a camera's name has none unless marked; a copy
  // number only when nothing else is there.
  const { marked, bare } = readNumbers(tokens, numberLabel, athletes, used);
  const distinct = (values: number[]) => [...new Set(values)];
  let numbers: number[] = [];
  if (marked.length) numbers = distinct(marked);
  else if (other.camera) numbers = [];
  else if (bare.length) numbers = distinct(bare);
  else if (other.copyNumber !== null) numbers = [other.copyNumber];

  // 6. What is left may be part of a name.
  const leftover = tokens
    .flatMap((token, i) => {
      if (token.kind === "digits" || (used.has(i) && !leftoverOf.has(i))) return [];
      return [(leftoverOf.get(i) ?? token.text).replace(HONORIFIC, "")];
    })
    .filter((word) => word.length > 0);

  return {
    numbers,
    camera: other.camera && !marked.length,
    style: styleReading(styleHits),
    namedIds: names.namedIds,
    leftover,
  };
}
