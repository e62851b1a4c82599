/**
 * Reading an edited video's file name at batch delivery (issue 14): which athlete and which style
 * it is for, so that one file can be matched to every open order line for that athlete and style.
 * Editors name files in many ways (`12_縦.mp4`, `012-横.mov`, `No12 縦.mp4`, `演奏順12_yoko.mp4`,
 * `１２＿縦.mp4`, `12_山田花子_縦.mp4`); the matcher reads them all, and where a name could mean
 * two things it says so (ambiguous) rather than guess, because a wrong guess sends one family's
 * video to another. Pure: the contest's styles and athletes are passed in, and the same code runs
 * on the server and on the matching screen in the browser.
 */
import { ORIENTATION_LABELS, type Orientation } from "../../lib/rules/pricing";

/** The contest's styles in display order: the first format is vertical, the second horizontal (app/lib/rules/pricing.ts orientationAt). */
export type DeliveryStyle = { name: string; orientation: Orientation };
export type MatchAthlete = { id: number; athleteNumber: number; name: string };
export type DeliveryContest = { styles: DeliveryStyle[]; numberLabel: string; athletes: MatchAthlete[] };
export type ParsedFileName = {
  athleteNumber: number | null;
  orientation: Orientation | null;
  nameText: string;
};
export type FileMatch =
  | { kind: "matched"; athleteId: number; orientation: Orientation }
  | {
      kind: "ambiguous";
      reason: string;
      candidates: { athleteId: number; orientation: Orientation | null }[];
    }
  | { kind: "unmatched"; reason: string };

/** One key per athlete and style: one delivery file serves every order line with the same key. */
export function matchKey(athleteId: number, orientation: Orientation): string {
  return `${athleteId}:${orientation}`;
}

// --- Normalising ------------------------------------------------------------------------------

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
function fileStem(fileName: string): string {
  // An old browser may send the whole path; split before NFKC, which would turn a legal ／ into a /.
  let stem = normaliseText(fileName.split(/[/\\]/).pop() ?? "").trim();
  const before = stem;
  while (VIDEO_EXTENSION.test(stem)) stem = stem.replace(VIDEO_EXTENSION, "");
  if (stem === before) stem = stem.replace(OTHER_EXTENSION, "");
  return stem;
}

type Span = { start: number; end: number };

/** Digits and Latin letters need a word boundary; CJK runs together with no spaces (山田花子縦). */
function charClass(char: string | undefined): "digit" | "latin" | "other" {
  if (char === undefined) return "other";
  if (/[0-9]/.test(char)) return "digit";
  return /[a-z]/.test(char) ? "latin" : "other";
}

/** A stem as code points, with the letters and digits kept apart from the separators between them. */
type IndexedStem = { chars: string[]; kept: { char: string; index: number }[]; compact: string };

function indexStem(stem: string): IndexedStem {
  const chars = Array.from(stem);
  const kept = chars.flatMap((char, index) => (char.replace(SEPARATORS, "") ? [{ char, index }] : []));
  return { chars, kept, compact: kept.map((k) => k.char).join("") };
}

/**
 * Where a compacted text (a name, a style name) stands in the stem, separators allowed between
 * its characters (山田_花子). It must not run on into more digits or Latin letters: 選手1 is not
 * in 選手12, emma is not in emmanuel.
 */
function findSpans(stem: IndexedStem, needle: string): Span[] {
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
function blankOut(stem: string, spans: Span[]): string {
  const chars = Array.from(stem);
  for (const span of spans) chars.fill(" ", span.start, span.end);
  return chars.join("");
}

// --- Words that are not the athlete number -------------------------------------------------------
// The patterns below start with (^|…) rather than a lookbehind, which older Safari cannot parse
// (the module runs on the matching screen too); their replacement keeps that first character.

/**
 * Names cameras and phones give: IMG_1234 (iPhone), DSC01234 / DSCF1234 (Sony, Nikon, Fuji),
 * MVI_1234 (Canon), MOV_0012, VID_20261123… and PXL_2026… (Android), GOPR1234 / GH011234 (GoPro),
 * DJI_0001, MAH00012 / C0001 (Sony video), P1000123 (Panasonic). Their digits count clips, not
 * athletes.
 */
const CAMERA_NAME =
  /(^|[^a-z])(?:(?:img|dsc[fn]?|mvi|mov|vid|pxl|gopr|g[hx]\d\d|dji|mah|c)[_-]?\d{4,}|p\d{7})/g;

/** A date with separators (2026-11-23, 2026.11.23, 2026_11_23): a shooting or export date. */
const DATE_WITH_SEPARATORS =
  /(^|\D)(?:19|20)\d\d([-./_ ])(?:0?[1-9]|1[0-2])\2(?:0?[1-9]|[12]\d|3[01])(?!\d)/g;
/** An eight-digit date (20261123), with the time phones add after it (_193045, _193045123). */
const DATE_COMPACT =
  /(^|\D)(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[_-]?\d{6}(?:\d{3})?)?(?!\d)/g;
/** A time of day with separators (19-30-45, 19.30.45). */
const TIME_OF_DAY = /(^|\D)(?:[01]?\d|2[0-3])([-:.])[0-5]\d\2[0-5]\d(?!\d)/g;
/**
 * The copy number a computer adds to a duplicate (`12_縦 (1).mp4`, and without the space when a
 * file was copied by a tool or renamed by hand: `03-tate(1).mp4`): a number only when there is no other.
 */
const COPY_SUFFIX = /\s*\((\d{1,3})\)$/;
/** What a Mac adds to a duplicate (`12_縦 のコピー 2.mp4`, `12_縦 copy 2.mp4`): never a number. */
const COPY_WORDS = /\s*(?:のコピー|コピー|copy)(?:\s+\d{1,3})?$/;
/** A rate or length with decimals (29.97fps, 2.5s, 1.5mbps): neither half is a number. */
const DECIMAL_WITH_UNIT = /(^|[^0-9.])\d+\.\d+(?=(?:fps|p|k|hz|khz|kbps|mbps|s|sec|min)(?![a-z]))/g;

/** Letters right after digits that make them a size or rate: 1080p, 1080i, 4k, 60fps, 24bit, 8mbps, 48khz, 1920x1080. */
const UNITS_AFTER_NUMBER = new Set("p i k fps bit kbps mbps hz khz kb mb gb s sec min x".split(" "));
/**
 * Letters right before digits (or with a dot between) that make them a version, a codec or a
 * rate: v2, ver.3, rev2, take3, mp4, h264, x264, the 1080 of 1920x1080, the 60 of 2160p60.
 */
const LETTERS_BEFORE_NON_NUMBER = new Set("v ver version rev r take tk mp h x p".split(" "));
/** Counters right after digits (第2部, 3回目, 11月23日, 2曲目, 10歳, 第2版): a number, but of something else. */
const COUNTER_AFTER_NUMBER = /^(?:部|回|年|月|日|曲|歳|才|分|秒|時|期|版|稿|枚|本|人|位)/;
/** Words right before digits that make them a take or a revision (テイク2, 修正3). */
const WORDS_BEFORE_NON_NUMBER = /(?:テイク|修正)$/;
/** Above this, digits are a clip counter, a time or a date, not an athlete number (unless an athlete has it). */
const LARGEST_LIKELY_NUMBER = 99_999;

/** Words written before the athlete number (No.12, 演奏順12, ゼッケン12, エントリー12, entry 12); `#12` is seen on the separator. */
const NUMBER_MARKERS =
  "no nr num number entry bib 番号 ゼッケン ナンバー 演奏順 出演順 出番 エントリー 順番".split(" ");
/** Japanese markers also end longer words: ゼッケン番号, 背番号, ビッグナンバー, エントリー番号. */
const JAPANESE_MARKER = /[^a-z]$/;
/** Written after the number: 12番, 12番目. */
const MARKER_AFTER_NUMBER = /^番/;

// --- Style words ----------------------------------------------------------------------------------

/** Style words in kana and Latin letters, read only as whole words (きよこ and Yokoyama are names). */
const VERTICAL_WORDS = new Set(["たて", "タテ", "tate", "vertical", "portrait"]);
const HORIZONTAL_WORDS = new Set(["よこ", "ヨコ", "yoko", "horizontal", "landscape"]);
/**
 * Style words in kanji (縦, 横型, 縦長, 横向き, 縦動画, 縦向き動画), alone or straight after a name
 * (山田花子縦). Not at the start of a word: 横山 and 縦川 are surnames.
 */
const KANJI_STYLE_AT_END = /(縦|横)(?:型|長|向き|撮り|画面)?(?:動画|版)?$/;
/** Whether a contest's own style name says which way it is filmed (縦動画, 横（テレビ用）). */
const SAYS_VERTICAL = /縦|たて|タテ|tate|vertical|portrait/;
const SAYS_HORIZONTAL = /横|よこ|ヨコ|yoko|horizontal|landscape/;

/** Polite forms after a name (花子ちゃん, 山田さん). */
const HONORIFIC = /(?:さん|ちゃん|くん|君|様|さま)$/;

/** A word left over fits an athlete when it is part of the name; a word in more names than this says nothing (選手, 花). */
const MOST_NAME_CANDIDATES = 5;

// --- Reading a file name -----------------------------------------------------------------------

type TokenKind = "digits" | "latin" | "word";
/** A word of the stem, with the separators before it: "" when it touches the word before (no12, 1080p). */
type Token = { text: string; kind: TokenKind; gap: string };

/** Digits, Latin letters and other scripts each make a token: no12 → no, 12; 演奏順12縦 → 演奏順, 12, 縦. */
const TOKEN = /[0-9]+|[a-z]+|[^0-9a-z]+/g;

function tokenise(stem: string): Token[] {
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

/** What the name says about the style, in the contest's own terms (its price slots). */
type StyleReading =
  | { kind: "none" }
  | { kind: "one"; orientation: Orientation }
  /** Two different styles, with the names the admin knows them by. */
  | { kind: "both"; names: string[] }
  /** A style word the contest does not sell (a 横 file for a contest that sells only 縦). */
  | { kind: "unsold"; filmed: Orientation };

type Reading = {
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

type PreparedAthlete = { id: number; athleteNumber: number; name: string };
type PreparedAthletes = {
  list: PreparedAthlete[];
  byNumber: Map<number, number[]>;
  searchable: PreparedAthlete[];
};

// A contest's athletes are compacted once, not once per file (200 files × 2,000 athletes).
const preparedCache = new WeakMap<readonly MatchAthlete[], PreparedAthletes>();

function prepare(athletes: readonly MatchAthlete[]): PreparedAthletes {
  const cached = preparedCache.get(athletes);
  if (cached) return cached;
  const list = athletes.map((a) => ({ id: a.id, athleteNumber: a.athleteNumber, name: compactText(a.name) }));
  const byNumber = new Map<number, number[]>();
  for (const a of list) byNumber.set(a.athleteNumber, [...(byNumber.get(a.athleteNumber) ?? []), a.id]);
  // Names looked for inside file names: one character (林) or digits alone would be found by chance.
  const searchable = list.filter((a) => Array.from(a.name).length >= 2 && !/^[0-9]+$/.test(a.name));
  const prepared = { list, byNumber, searchable };
  preparedCache.set(athletes, prepared);
  return prepared;
}

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
function styleForWord(filmed: Orientation, styles: readonly DeliveryStyle[]): Orientation | null {
  const named = styles.map((style) => ({ style, filmed: filmedWay(style.name) }));
  const same = named.find((n) => n.filmed === filmed);
  if (same) return same.style.orientation;
  if (named.some((n) => n.filmed !== null)) return null;
  return styles.some((s) => s.orientation === filmed) ? filmed : null;
}

function builtInStyle(word: string): Orientation | null {
  if (VERTICAL_WORDS.has(word)) return "vertical";
  if (HORIZONTAL_WORDS.has(word)) return "horizontal";
  return null;
}

/** Athletes' names standing in the stem, blanked out so that 横山花子 or 縦川 is not read as a style word. */
function takeAthleteNames(stem: string, athletes: PreparedAthletes): { stem: string; namedIds: number[] } {
  const indexed = indexStem(stem);
  const hits: { id: number; span: Span }[] = [];
  for (const a of athletes.searchable) {
    if (!indexed.compact.includes(a.name)) continue;
    for (const span of findSpans(indexed, a.name)) hits.push({ id: a.id, span });
  }
  // 花子 inside 山田花子 is 山田花子's name, not 花子's.
  const length = (span: Span) => span.end - span.start;
  const longest = hits.filter(
    (h) =>
      !hits.some(
        (o) => o.span.start <= h.span.start && h.span.end <= o.span.end && length(o.span) > length(h.span),
      ),
  );
  return {
    stem: blankOut(
      stem,
      hits.map((h) => h.span),
    ),
    namedIds: [...new Set(longest.map((h) => h.id))],
  };
}

/** Digits that are not athlete numbers, blanked out: copy suffixes, camera counters, dates, times and rates. */
function takeOtherDigits(stem: string): { stem: string; camera: boolean; copyNumber: number | null } {
  const copy = COPY_SUFFIX.exec(stem);
  const withoutCopies = stem.replace(COPY_SUFFIX, " ").replace(COPY_WORDS, " ");
  const withoutCamera = withoutCopies.replace(CAMERA_NAME, "$1 ");
  return {
    stem: withoutCamera
      .replace(DATE_WITH_SEPARATORS, "$1 ")
      .replace(DATE_COMPACT, "$1 ")
      .replace(TIME_OF_DAY, "$1 ")
      .replace(DECIMAL_WITH_UNIT, "$1 "),
    camera: withoutCamera !== withoutCopies,
    copyNumber: copy?.[1] ? Number(copy[1]) : null,
  };
}

/**
 * The numbers among the tokens, marked (No.12, #12, 演奏順12, 12番) or bare; digits that are a
 * size, a rate, a version or a count of something else are skipped. Words read as part of a
 * number (markers, units) are added to `used`.
 */
function readNumbers(
  tokens: Token[],
  numberLabel: string,
  athletes: PreparedAthletes,
  used: Set<number>,
): { marked: number[]; bare: number[] } {
  const markers = new Set(NUMBER_MARKERS);
  const label = compactText(numberLabel);
  if (label) markers.add(label);
  const japaneseMarkers = [...markers].filter((m) => JAPANESE_MARKER.test(m));

  const marked: number[] = [];
  const bare: number[] = [];
  tokens.forEach((token, i) => {
    if (token.kind !== "digits") return;
    const value = Number(token.text);
    // The words touching it (the p of 1080p, the 番 of 12番); a version word may have a dot between (ver.2).
    const next = tokens[i + 1];
    const after = next?.gap === "" ? next : undefined;
    const before = token.gap === "" ? tokens[i - 1] : undefined;
    const version = token.gap === "" || token.gap === "." ? tokens[i - 1] : undefined;
    const unitAfter = after?.kind === "latin" && UNITS_AFTER_NUMBER.has(after.text);
    const versionBefore = version?.kind === "latin" && LETTERS_BEFORE_NON_NUMBER.has(version.text);
    if (unitAfter) used.add(i + 1);
    if (versionBefore) used.add(i - 1);
    const otherNumber =
      (value > LARGEST_LIKELY_NUMBER && !athletes.byNumber.has(value)) ||
      unitAfter ||
      versionBefore ||
      (after?.kind === "word" && COUNTER_AFTER_NUMBER.test(after.text)) ||
      (before?.kind === "word" && WORDS_BEFORE_NON_NUMBER.test(before.text));
    if (otherNumber) return;

    let isMarked = token.gap.includes("#");
    // A marker may be one word or several (a label like "Bib No."): try the last one to three words.
    for (let k = 1; k <= 3 && i - k >= 0; k++) {
      const words = tokens.slice(i - k, i);
      if (words.some((w) => w.kind === "digits")) break;
      const joined = words.map((w) => w.text).join("");
      const endsWithMarker =
        k === 1 && words[0]?.kind === "word" && japaneseMarkers.some((m) => joined.endsWith(m));
      if (markers.has(joined) || endsWithMarker) {
        isMarked = true;
        for (let j = i - k; j < i; j++) used.add(j);
        break;
      }
    }
    if (after?.kind === "word" && MARKER_AFTER_NUMBER.test(after.text)) {
      isMarked = true;
      if (after.text === "番" || after.text === "番目") used.add(i + 1);
    }
    (isMarked ? marked : bare).push(value);
  });
  return { marked, bare };
}

function read(
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

function styleReading(hits: Map<string, string>): StyleReading {
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

/** The one item of a list of one, else null. */
function onlyOne<T>(items: readonly T[]): T | null {
  const [first] = items;
  return items.length === 1 && first !== undefined ? first : null;
}

/** The styles the contest sells, each once, in its order. */
function soldOrientations(styles: readonly DeliveryStyle[]): Orientation[] {
  return [...new Set(styles.map((s) => s.orientation))];
}

const NO_ATHLETES: MatchAthlete[] = [];

/**
 * What a file name says, without the athletes: the athlete number (null when there is none or
 * more than one), the style (a one-style contest's style when none is written) and the words
 * left over, which may be a name.
 */
export function parseDeliveryFileName(
  fileName: string,
  styles: DeliveryStyle[],
  numberLabel = "",
): ParsedFileName {
  const reading = read(fileName, styles, numberLabel, prepare(NO_ATHLETES));
  const sold = soldOrientations(styles);
  const orientation =
    reading.style.kind === "one"
      ? reading.style.orientation
      : reading.style.kind === "none"
        ? onlyOne(sold)
        : null;
  return {
    athleteNumber: onlyOne(reading.numbers),
    orientation,
    nameText: reading.leftover.join(" "),
  };
}

// --- Matching -------------------------------------------------------------------------------------

type Who =
  | { kind: "one"; id: number }
  | { kind: "some"; ids: number[]; reason: string }
  | { kind: "none"; reason: string };

/**
 * Athletes a leftover word fits as part of their name (山田 → 山田花子). A word that is someone's
 * whole name wins when it is exactly one athlete's (花子 over 山田花子).
 */
function partlyNamed(words: string[], athletes: PreparedAthletes): number[] {
  if (!words.length) return [];
  const whole = onlyOne(athletes.list.filter((a) => words.includes(a.name)));
  if (whole) return [whole.id];
  const fits = athletes.list.filter((a) =>
    words.some((w) => a.name === w || (Array.from(w).length >= 2 && a.name.includes(w))),
  );
  return fits.length <= MOST_NAME_CANDIDATES ? fits.map((a) => a.id) : [];
}

function whoIsIt(reading: Reading, athletes: PreparedAthletes, label: string): Who {
  const named = reading.namedIds.length ? reading.namedIds : partlyNamed(reading.leftover, athletes);
  const { numbers } = reading;

  if (numbers.length > 1) {
    const numbered = numbers.flatMap((n) => athletes.byNumber.get(n) ?? []);
    // The name settles which of the numbers is the athlete's (12_13_山田花子_縦 with 山田花子 at 12).
    const agreeing = onlyOne(numbered.filter((id) => named.includes(id)));
    if (agreeing !== null) return { kind: "one", id: agreeing };
    const reason = `${label}が複数あります（${numbers.join("・")}）`;
    const ids = numbered.length ? numbered : named;
    return ids.length ? { kind: "some", ids, reason } : { kind: "none", reason };
  }

  const n = onlyOne(numbers);
  if (n !== null) {
    const numbered = athletes.byNumber.get(n) ?? [];
    if (!numbered.length) {
      return named.length
        ? { kind: "some", ids: named, reason: `${label}と名前が一致しません` }
        : { kind: "none", reason: `${label} ${n} の選手がいません` };
    }
    const agreeing = named.length ? numbered.filter((id) => named.includes(id)) : numbered;
    const one = onlyOne(agreeing);
    if (one !== null) return { kind: "one", id: one };
    if (agreeing.length > 1)
      return { kind: "some", ids: agreeing, reason: `${label} ${n} の選手が複数います` };
    return {
      kind: "some",
      ids: [...new Set([...numbered, ...named])],
      reason: `${label}と名前が一致しません`,
    };
  }

  const one = onlyOne(named);
  if (one !== null) return { kind: "one", id: one };
  if (named.length > 1) return { kind: "some", ids: named, reason: "名前が一致する選手が複数います" };
  if (reading.camera)
    return { kind: "none", reason: `カメラが付けたファイル名のようです（${label}がありません）` };
  return { kind: "none", reason: `${label}が見つかりません` };
}

/** The label the contest gives its athlete numbers (ゼッケン番号, 演奏順), for the reasons the admin reads. */
function labelFor(numberLabel: string): string {
  return numberLabel.trim() || "番号";
}

/**
 * The athlete and style a delivery file is for: matched, ambiguous (with the candidates the admin
 * chooses from on the matching screen) or unmatched, with a short reason in Japanese.
 */
export function matchDeliveryFile(fileName: string, contest: DeliveryContest): FileMatch {
  const athletes = prepare(contest.athletes);
  const label = labelFor(contest.numberLabel);
  const reading = read(fileName, contest.styles, contest.numberLabel, athletes);

  const who = whoIsIt(reading, athletes, label);
  if (who.kind === "none") return { kind: "unmatched", reason: who.reason };

  const sold = soldOrientations(contest.styles);
  if (!sold.length) return { kind: "unmatched", reason: "この大会には販売している動画がありません" };
  if (reading.style.kind === "unsold") {
    const way = ORIENTATION_LABELS[reading.style.filmed];
    return { kind: "unmatched", reason: `この大会では${way}の動画を販売していません` };
  }
  const styleNames = contest.styles.map((s) => s.name).join("・");
  const orientations = reading.style.kind === "one" ? [reading.style.orientation] : sold;
  const styleReason =
    reading.style.kind === "both"
      ? `スタイルが2つ書かれています（${reading.style.names.join("・")}）`
      : orientations.length > 1
        ? `スタイル（${styleNames}）が分かりません`
        : null;
  const orientation = onlyOne(orientations);
  if (who.kind === "one" && orientation !== null && styleReason === null) {
    return { kind: "matched", athleteId: who.id, orientation };
  }
  const ids = who.kind === "one" ? [who.id] : who.ids;
  const reason = [who.kind === "some" ? who.reason : null, styleReason].filter(Boolean).join("。");
  return {
    kind: "ambiguous",
    reason,
    candidates: ids.flatMap((athleteId) => orientations.map((orientation) => ({ athleteId, orientation }))),
  };
}
